# Argo CD's documented Python plugin (Generators-Plugin docs, "A Simple Python Plugin"), changed
# only where the benchmark needs it: the token path comes from PLUGIN_TOKEN_FILE, the port from
# PLUGIN_PORT, and the reply is what the benchmark's mapping fast.yaml answers, so that
# every compared system sends the same bytes. Still a single-threaded http.server that logs each
# request to stderr, as documented (appset-mapper logs one line per getparams too).
import json
import os
from http.server import BaseHTTPRequestHandler, HTTPServer

with open(os.environ.get("PLUGIN_TOKEN_FILE", "/var/run/argo/token")) as f:
    plugin_token = f.read().strip()


class Plugin(BaseHTTPRequestHandler):

    def args(self):
        return json.loads(self.rfile.read(int(self.headers.get('Content-Length'))))

    def reply(self, reply):
        body = json.dumps(reply, separators=(",", ":")).encode("UTF-8")
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def forbidden(self):
        self.send_response(403)
        self.end_headers()

    def unsupported(self):
        self.send_response(404)
        self.end_headers()

    def do_POST(self):
        if self.headers.get("Authorization") != "Bearer " + plugin_token:
            self.forbidden()
            return

        if self.path == '/api/v1/getparams.execute':
            args = self.args()
            params = args.get("input", {}).get("parameters", {})
            self.reply({
                "output": {
                    "parameters": [
                        {
                            "name": params.get("name"),
                            "count": "3",
                            "upper": params.get("name").upper(),
                            "app": args.get("applicationSetName")
                        }
                    ]
                }
            })
        else:
            self.unsupported()


if __name__ == '__main__':
    httpd = HTTPServer(('127.0.0.1', int(os.environ.get("PLUGIN_PORT", "4355"))), Plugin)
    httpd.serve_forever()
