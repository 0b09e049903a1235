#!/usr/bin/env python3
"""Runs the `helm test` pod's shell script from a rendered manifest against a local stub server.

The stub speaks the server's contract (GET /healthz, GET /readyz, POST
/mappings/<name>/api/v1/getparams.execute with `Authorization: Bearer <token>`: 403 for a wrong
token, 404 for an unknown mapping, 200 with {"output":{"parameters":[...]}}). The script must pass
against it, and must fail against stubs that accept any token or answer without `output`.
Needs `sh` and `curl`. Prints `ok <check>` / `not ok <check>: <why>` lines.
"""
import json
import os
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import yaml

TOKEN = "s3cr3t-token"


def stub(mappings, check_token=True, answer=None):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def reply(self, code, body):
            data = json.dumps(body).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            if self.path in ("/healthz", "/readyz"):
                self.reply(200, {"status": "ok"})
            else:
                self.reply(404, {"error": "not found"})

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            assert "applicationSetName" in body and "input" in body
            parts = self.path.split("/")
            if check_token and self.headers.get("Authorization") != f"Bearer {TOKEN}":
                return self.reply(403, {"error": "forbidden"})
            if len(parts) != 6 or parts[1] != "mappings" or parts[3:] != ["api", "v1", "getparams.execute"]:
                return self.reply(404, {"error": "unknown path"})
            if parts[2] not in mappings and answer is None:
                return self.reply(404, {"error": f"unknown mapping '{parts[2]}'"})
            self.reply(200, answer if answer is not None else {"output": {"parameters": [{"greeting": "hello"}]}})

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def run_script(pod, server, token_file):
    container = pod["spec"]["containers"][0]
    script = container["command"][-1].replace("/var/run/argo/token", token_file)
    env = {e["name"]: e["value"] for e in container["env"]}
    env["BASE"] = f"http://127.0.0.1:{server.server_address[1]}"
    env["PATH"] = os.environ["PATH"]
    return subprocess.run(["sh", "-ec", script], env=env, capture_output=True, text=True, timeout=60)


def main(rendered, scenario):
    docs = [d for d in yaml.safe_load_all(open(rendered)) if d]
    pod = next(d for d in docs if d["kind"] == "Pod"
               and d["metadata"].get("annotations", {}).get("helm.sh/hook") == "test")
    mappings = [d for d in docs if d["kind"] == "ConfigMap" and d["metadata"]["name"].endswith("-mappings")]
    names = {k[: -len(".yaml")] for k in (mappings[0].get("data") or {})}
    mapping = next(e["value"] for e in pod["spec"]["containers"][0]["env"] if e["name"] == "MAPPING")
    failed = 0
    with tempfile.NamedTemporaryFile("w", suffix="-token") as tf:
        tf.write(f"{TOKEN}\nan-older-token\n")
        tf.flush()
        cases = [
            ("passes against a correct server", stub(names), True),
            ("fails when any token is accepted", stub(names, check_token=False), False),
            ("fails on a 2xx answer without output" if mapping else "fails when an unknown mapping answers 2xx",
             stub(names, answer={}), False),
        ]
        for name, server, should_pass in cases:
            try:
                r = run_script(pod, server, tf.name)
            finally:
                server.shutdown()
            if (r.returncode == 0) == should_pass:
                print(f"ok [{scenario}] helm test script {name}")
            else:
                failed += 1
                print(f"not ok [{scenario}] helm test script {name}: exit {r.returncode}; "
                      f"stdout: {r.stdout.strip()!r}; stderr: {r.stderr.strip()!r}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
