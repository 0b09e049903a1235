#!/usr/bin/env python3
"""Runs the appset-mapper image the way Kubernetes runs it, with podman, and checks what the
README and the Helm chart promise (called by scripts/image-check, which builds the image).

1. The README's quick start: the image's own user (65532), a read-only root filesystem with a
   tmpfs /tmp (the chart's emptyDir), no capabilities, the sample mounted read-only, the token
   from a file at the default --token-file; the README's curl calls answer exactly as the README
   shows (scripts/readme-check against the container), /healthz, /readyz, /metrics; SIGTERM
   with nothing in flight exits 0.
2. Shutdown and TLS: a mapping calling an HTTPS stub (EC P-256 certificate from a private CA,
   caFile) answers; then with a call in flight, SIGTERM turns /readyz to 503 at once, the call
   finishes, the last log line is written and the process exits 0 within the chart's
   terminationGracePeriodSeconds, with the server's default drain delay and grace period.

3. The runtime: the AOT cache is used (a run with -XX:AOTMode=on, which refuses to start without
   it, loads the CLI's classes from it), no JVM line (a warning on first use of something) reaches
   the output beside the server's log lines, and a broken cache only costs start time: the
   server starts, answers and exits 0 on SIGTERM.

Every container uses --network host and binds 127.0.0.1 on a free port (--port 0, read from the
log): no traffic to podman's private bridge range. Prints `ok ...`/`not ok ...` lines and the
measured numbers; exits non-zero when a check failed.
"""
import argparse
import http.client
import http.server
import json
import os
import re
import shlex
import ssl
import subprocess
import sys
import tempfile
import threading
import time

import yaml

BOUND = 60.0  # seconds: the most any condition is waited for (a busy 2-core machine)
results = {"passed": 0, "failed": 0}
measured = {}


def check(name, ok, detail=""):
    if ok:
        results["passed"] += 1
        print(f"ok {name}")
    else:
        results["failed"] += 1
        print(f"not ok {name}" + (f": {detail}" if detail else ""))
    return ok


class Podman:
    def __init__(self, command):
        self.base = shlex.split(command)

    def __call__(self, *args, check=True, timeout=300):
        done = subprocess.run(self.base + list(args), capture_output=True, text=True, timeout=timeout)
        if check and done.returncode != 0:
            raise RuntimeError(f"podman {' '.join(args[:2])}: {done.stderr.strip() or done.stdout.strip()}")
        return done

    def logs(self, name):
        done = self("logs", name, check=False)
        return (done.stdout + done.stderr).splitlines()

    def inspect(self, name, template):
        return self("inspect", "-f", template, name).stdout.strip()


def request(port, method, path, body=None, headers=None, timeout=BOUND):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        answer = conn.getresponse()
        return answer.status, answer.read().decode()
    finally:
        conn.close()


def wait_for(condition, what, on_timeout=lambda: ""):
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise RuntimeError(f"timed out waiting for {what}: {on_timeout()}")


def listening_port(podman, name):
    def port():
        for line in podman.logs(name):
            m = re.search(r"listening on 127\.0\.0\.1:(\d+) ", line)
            if m:
                return int(m.group(1))
        if podman.inspect(name, "{{.State.Running}}") != "true":
            raise RuntimeError("the container stopped:\n" + "\n".join(podman.logs(name)))
        return None

    return wait_for(port, f"{name} to listen", lambda: "\n".join(podman.logs(name)))


def ready_status(port):
    try:
        return request(port, "GET", "/readyz", timeout=5)[0]
    except OSError:
        return None


LOG_LINE = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d|\{)")


def jvm_lines(logs):
    """Output lines that are not the server's log lines (text or JSON): the JVM's own."""
    return [line for line in logs if line.strip() and not LOG_LINE.match(line)]


def start(podman, name, image, mounts, args, extra=()):
    """podman run as the chart's securityContext runs the pod; returns (port, seconds to ready)."""
    podman("rm", "-f", name, check=False)
    started = time.monotonic()
    command = ["run", "-d", "--pull=never", "--name", name, "--network", "host", "--read-only",
               "--tmpfs", "/tmp:rw,mode=1777,size=64m", "--cap-drop", "ALL",
               "--security-opt", "no-new-privileges"]
    for source, target in mounts:
        command += ["-v", f"{source}:{target}:ro"]
    command += list(extra)
    podman(*command, image, *args, "--host", "127.0.0.1", "--port", "0")
    port = listening_port(podman, name)
    wait_for(lambda: ready_status(port) == 200, f"{name} /readyz 200")
    return port, time.monotonic() - started


def readable_by_all(path):
    os.chmod(path, 0o755)
    for root, dirs, files in os.walk(path):
        for d in dirs:
            os.chmod(os.path.join(root, d), 0o755)
        for f in files:
            os.chmod(os.path.join(root, f), 0o644)


def runs_as(podman, name):
    pid = podman.inspect(name, "{{.State.Pid}}")
    with open(f"/proc/{pid}/status") as f:
        uid = re.search(r"^Uid:\s+(.*)$", f.read(), re.M).group(1).split()
    return uid


def stop_and_wait(podman, name):
    podman("kill", "--signal", "TERM", name)
    return int(podman("wait", name, timeout=BOUND + 30).stdout.strip().splitlines()[-1])


# --------------------------------------------------------------------------- 1. quick start
def quick_start(podman, image, repo, work):
    serve_line = subprocess.run(["bash", "scripts/readme-check", "--serve-line"], cwd=repo,
                                capture_output=True, text=True, check=True).stdout.strip()
    words = shlex.split(serve_line)
    env = {}
    while "=" in words[0]:
        key, value = words.pop(0).split("=", 1)
        env[key] = value
    # "java -jar target/appset-mapper.jar serve ...": the image's entry point is the java part.
    args = words[words.index("serve"):]
    token = env.get("APPSET_MAPPER_TOKEN")
    check("the README's quick start names its token (APPSET_MAPPER_TOKEN)", bool(token), serve_line)
    secrets = os.path.join(work, "argo")
    os.makedirs(secrets)
    with open(os.path.join(secrets, "token"), "w") as f:
        f.write(f"{token}\n")
    readable_by_all(secrets)
    # The image's working directory is /app: the README's relative paths resolve under it.
    mounts = [(os.path.join(repo, "samples", "pr-digests"), "/app/samples/pr-digests"),
              (secrets, "/var/run/argo")]
    name = "appset-mapper-check-quickstart"
    try:
        port, seconds = start(podman, name, image, mounts, args)
        measured["start_to_ready_seconds"] = round(seconds, 2)
        check(f"[quick start] {' '.join(args)}: ready on 127.0.0.1:{port}", True)
        uid = runs_as(podman, name)
        check("[quick start] runs as the image's user 65532, not root", uid == ["65532"] * 4, uid)
        check("[quick start] read-only root filesystem",
              podman.inspect(name, "{{.HostConfig.ReadonlyRootfs}}") == "true")
        status, body = request(port, "GET", "/healthz")
        check("[quick start] GET /healthz is 200", status == 200, f"{status} {body}")
        status, body = request(port, "GET", "/readyz")
        check("[quick start] GET /readyz is 200", status == 200, f"{status} {body}")
        readme = subprocess.run(["bash", "scripts/readme-check"], cwd=repo, capture_output=True,
                                text=True, env={**os.environ, "README_CHECK_URL": f"http://127.0.0.1:{port}"})
        out = (readme.stdout + readme.stderr).strip()
        check(f"[quick start] the README's curl calls answer as documented (token from the file): "
              f"{out.splitlines()[-1] if out else ''}", readme.returncode == 0, out)
        status, body = request(port, "POST", "/mappings/pr-digests/api/v1/getparams.execute",
                               body='{"input":{"parameters":{"branch":"main"}}}',
                               headers={"Authorization": "Bearer not-the-token"})
        check("[quick start] another token is refused (403)", status == 403, f"{status} {body}")
        status, body = request(port, "GET", "/metrics")
        check("[quick start] GET /metrics counts the README's calls and the JVM",
              status == 200
              and 'appset_mapper_getparams_requests_total{mapping="pr-digests",status="200"}' in body
              and "jvm_memory_used_bytes{" in body, f"{status} {body[:300]}")
        exit_code = stop_and_wait(podman, name)
        check("[quick start] SIGTERM with nothing in flight: exit status 0", exit_code == 0,
              f"{exit_code}\n" + "\n".join(podman.logs(name)[-10:]))
        foreign = jvm_lines(podman.logs(name))
        check("[quick start] no JVM line in the output, only the server's log lines", not foreign,
              "\n".join(foreign[:10]))
    finally:
        podman("rm", "-f", name, check=False)


# --------------------------------------------------------------------------- 2. shutdown, TLS
class Stub(http.server.BaseHTTPRequestHandler):
    """GET /slow waits for `release`; GET /items answers at once."""
    arrived = threading.Event()
    release = threading.Event()

    def do_GET(self):
        if self.path == "/slow":
            Stub.arrived.set()
            Stub.release.wait(BOUND)
            body = b'[{"id":"slow"}]'
        elif self.path == "/items":
            body = b'[{"id":"tls"}]'
        else:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def serve(server):
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server


def make_pki(d):
    """A private CA and a server certificate for 127.0.0.1, both EC P-256 (jdk.crypto.ec)."""
    def openssl(*args):
        subprocess.run(["openssl", *args], cwd=d, check=True, capture_output=True)

    openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "ca.key")
    openssl("req", "-x509", "-new", "-key", "ca.key", "-subj", "/CN=appset-mapper test CA",
            "-days", "2", "-out", "ca.pem")
    openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "server.key")
    openssl("req", "-new", "-key", "server.key", "-subj", "/CN=127.0.0.1", "-out", "server.csr")
    with open(os.path.join(d, "ext"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n")
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
            "-CAcreateserial", "-days", "2", "-extfile", "ext", "-out", "server.pem")


MAPPINGS = {
    "slow.yaml": """\
name: slow
vars: {slowUpstream: {default: "http://unset.invalid"}}
list:
  request: {url: "#{vars.slowUpstream}/slow"}
  items: "$[*]"
parameters: {id: item.id}
""",
    "tls.yaml": """\
name: tls
vars: {tlsUpstream: {default: "https://unset.invalid"}}
list:
  request:
    url: "#{vars.tlsUpstream}/items"
    tls: {caFile: /etc/appset-mapper/tls/ca.pem}
  items: "$[*]"
parameters: {id: item.id}
""",
}


def shutdown_and_tls(podman, image, repo, work, grace_seconds):
    pki = os.path.join(work, "tls")
    os.makedirs(pki)
    make_pki(pki)
    tls_ca = os.path.join(work, "tls-ca")
    os.makedirs(tls_ca)
    with open(os.path.join(pki, "ca.pem")) as src, open(os.path.join(tls_ca, "ca.pem"), "w") as dst:
        dst.write(src.read())
    mappings = os.path.join(work, "mappings")
    os.makedirs(mappings)
    for file, text in MAPPINGS.items():
        with open(os.path.join(mappings, file), "w") as f:
            f.write(text)
    secrets = os.path.join(work, "argo2")
    os.makedirs(secrets)
    with open(os.path.join(secrets, "token"), "w") as f:
        f.write("shutdown-token\n")
    for d in (tls_ca, mappings, secrets):
        readable_by_all(d)
    plain = serve(http.server.ThreadingHTTPServer(("127.0.0.1", 0), Stub))
    secure = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Stub)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.path.join(pki, "server.pem"), os.path.join(pki, "server.key"))
    secure.socket = context.wrap_socket(secure.socket, server_side=True)
    serve(secure)
    auth = {"Authorization": "Bearer shutdown-token"}
    name = "appset-mapper-check-shutdown"
    try:
        # The chart's layout: mappings at the image's default path, token at the default file.
        port, seconds = start(
            podman, name, image,
            [(mappings, "/etc/appset-mapper/mappings"), (tls_ca, "/etc/appset-mapper/tls"),
             (secrets, "/var/run/argo")],
            ["serve", "--mappings", "/etc/appset-mapper/mappings",
             "--var", f"slowUpstream=http://127.0.0.1:{plain.server_address[1]}",
             "--var", f"tlsUpstream=https://127.0.0.1:{secure.server_address[1]}"],
            # Traces on: the OTLP exporter sends with the JDK's HttpClient (java.net.http, a
            # module the jlink'd runtime must hold); the stub refuses them, spans are dropped.
            extra=["-e", f"OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:{plain.server_address[1]}"])
        measured["start_to_ready_seconds_2"] = round(seconds, 2)
        status, body = request(port, "POST", "/mappings/tls/api/v1/getparams.execute", "{}", auth)
        check("[tls] a call to an HTTPS upstream (EC P-256, private CA) from inside the container, "
              "traces on (OTLP over the JDK's HttpClient)",
              (status, body) == (200, '{"output":{"parameters":[{"id":"tls"}]}}'), f"{status} {body}")

        in_flight = {}

        def call():
            try:
                in_flight["answer"] = request(port, "POST", "/mappings/slow/api/v1/getparams.execute",
                                              "{}", auth, timeout=BOUND + 30)
            except OSError as e:
                in_flight["answer"] = (None, repr(e))

        caller = threading.Thread(target=call, daemon=True)
        caller.start()
        if not Stub.arrived.wait(BOUND):
            raise RuntimeError("the slow call never reached the upstream stub")
        termed = time.monotonic()
        podman("kill", "--signal", "TERM", name)
        wait_for(lambda: ready_status(port) == 503, "/readyz 503 after SIGTERM")
        check("[sigterm] /readyz answers 503 while a call is still in flight",
              caller.is_alive() and podman.inspect(name, "{{.State.Running}}") == "true")
        Stub.release.set()
        caller.join(BOUND + 30)
        answer = in_flight.get("answer")
        check("[sigterm] the call in flight finishes with its answer",
              answer == (200, '{"output":{"parameters":[{"id":"slow"}]}}'), answer)
        exit_code = int(podman("wait", name, timeout=BOUND + 30).stdout.strip().splitlines()[-1])
        took = time.monotonic() - termed
        measured["sigterm_to_exit_seconds"] = round(took, 2)
        logs = podman.logs(name)
        check("[sigterm] exit status 0", exit_code == 0, f"{exit_code}\n" + "\n".join(logs[-10:]))
        check(f"[sigterm] exits within the chart's terminationGracePeriodSeconds "
              f"({took:.1f}s < {grace_seconds}s, default drain delay and grace period)",
              took < grace_seconds)
        check("[sigterm] logs flushed: the last line is the stop sequence's 'stopped'",
              bool(logs) and logs[-1].rstrip().endswith("stopped")
              and any("stopping: not ready from now" in line for line in logs), "\n".join(logs[-5:]))
        foreign = jvm_lines(logs)
        check("[sigterm] no JVM line in the output (TLS, shutdown), only the server's log lines",
              not foreign, "\n".join(foreign[:10]))
    finally:
        Stub.release.set()
        podman("rm", "-f", name, check=False)
        plain.shutdown()
        secure.shutdown()


# --------------------------------------------------------------------------- 3. the AOT cache
def aot_cache(podman, image, repo, work):
    entry = json.loads(podman.inspect(image, "{{json .Config.Entrypoint}}"))
    flags = entry[1:entry.index("-jar")]
    # AOTMode=on: the JVM refuses to start unless it maps the cache and it matches the jar.
    done = podman("run", "--rm", "--pull=never", "--read-only", "--entrypoint", entry[0], image,
                  *flags, "-XX:AOTMode=on", "-Xlog:class+load=info:stdout", *entry[entry.index("-jar"):],
                  "--version", check=False)
    cached = [line for line in done.stdout.splitlines()
              if "io.github.appsetmapper." in line and "source: shared objects file" in line]
    check(f"[aot] the cache matches the image's jar and runtime and is used "
          f"({len(cached)} of the project's classes from it with -XX:AOTMode=on)",
          done.returncode == 0 and len(cached) > 50, f"{done.returncode}\n{done.stderr[-2000:]}")
    broken = os.path.join(work, "broken.aot")
    with open(broken, "wb") as f:
        f.write(os.urandom(4096))
    os.chmod(broken, 0o644)
    mappings = os.path.join(repo, "samples", "pr-digests")
    name = "appset-mapper-check-aot"
    try:
        port, _ = start(podman, name, image, [(broken, "/app/appset-mapper.aot")],
                        ["serve", "--mappings", "/etc/appset-mapper/mappings"],
                        extra=["-v", f"{mappings}:/etc/appset-mapper/mappings:ro",
                               "-e", "APPSET_MAPPER_TOKEN=demo-token"])
        status, body = request(port, "GET", "/healthz")
        check("[aot] a broken cache does not stop the server: ready, /healthz 200", status == 200,
              f"{status} {body}")
        exit_code = stop_and_wait(podman, name)
        logs = podman.logs(name)
        check("[aot] ... and it exits 0 on SIGTERM; the JVM said why on stderr",
              exit_code == 0 and any("[aot]" in line for line in logs), "\n".join(logs[-10:]))
    finally:
        podman("rm", "-f", name, check=False)


# --------------------------------------------------------------------------- 4. the chart's limit
ROWS = 100_000
BIG_LIST = ("[" + ",".join('{"id":"item-%06d","name":"component-%06d","tag":"v1.%d.0"}' % (i, i, i % 50)
                           for i in range(ROWS)) + "]").encode()


class BigStub(http.server.BaseHTTPRequestHandler):
    """GET /big: a list of 100,000 rows (about 6 MB), as a large registry or monorepo answers."""
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(BIG_LIST)))
        self.end_headers()
        self.wfile.write(BIG_LIST)

    def log_message(self, *args):
        pass


def memory_limit(repo):
    values = yaml.safe_load(open(os.path.join(repo, "chart", "values.yaml")))
    return values["resources"]["limits"]["memory"]


def chart_limit(podman, image, repo, work):
    """Large answers under the chart's memory limit: each getparams is a 200 with every row or a
    503 naming the budget, and the container is never ended (an OOM kill leaves no log line: the
    first limit tried, 256Mi with a 75% heap, was ended by the kernel on the second such call)."""
    limit = memory_limit(repo)
    mappings = os.path.join(work, "big-mappings")
    os.makedirs(mappings)
    with open(os.path.join(mappings, "big.yaml"), "w") as f:
        f.write('name: big\nvars: {up: {default: "http://unset.invalid"}}\n'
                'list:\n  request: {url: "#{vars.up}/big"}\n  items: "$[*]"\n'
                'input: {n: {required: true}}\nparameters: {id: item.id, tag: item.tag}\n')
    readable_by_all(mappings)
    stub = serve(http.server.ThreadingHTTPServer(("127.0.0.1", 0), BigStub))
    name = "appset-mapper-check-limit"
    try:
        port, _ = start(podman, name, image, [(mappings, "/etc/appset-mapper/mappings")],
                        ["serve", "--mappings", "/etc/appset-mapper/mappings", "--insecure-no-auth",
                         "--var", f"up=http://127.0.0.1:{stub.server_address[1]}"],
                        extra=["--memory", limit.replace("Mi", "m").replace("Gi", "g"),
                               "--memory-swap", limit.replace("Mi", "m").replace("Gi", "g")])
        answers = []
        lock = threading.Lock()

        def call(i):
            try:
                # A new input each time: no coalescing, no cache hit: every call holds its answer.
                got = request(port, "POST", "/mappings/big/api/v1/getparams.execute",
                              json.dumps({"applicationSetName": "big", "input": {"parameters": {"n": str(i)}}}))
            except Exception as e:  # a connection cut by a killed process
                got = (None, str(e))
            with lock:
                answers.append(got)

        for round_ in range(3):
            threads = [threading.Thread(target=call, args=(round_ * 4 + k,)) for k in range(4)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(BOUND)
        statuses = sorted(str(a[0]) for a in answers)
        complete = [a for a in answers if a[0] == 200 and a[1].count('"id"') == ROWS]
        refused = [a for a in answers if a[0] == 503 and "memory-budget" in a[1]]
        check(f"[chart limit] 12 getparams of {ROWS:,} rows, 4 at a time, under the chart's limit ({limit}): "
              "each a complete 200 or a 503 naming the budget",
              len(complete) + len(refused) == len(answers) == 12 and complete, f"statuses {statuses}")
        state = podman.inspect(name, "{{.State.Status}} {{.State.OOMKilled}} {{.State.ExitCode}}")
        check(f"[chart limit] the container still runs after them (not OOM-killed)",
              state.startswith("running false"), state)
        check("[chart limit] and still answers /readyz", ready_status(port) == 200)
    finally:
        stub.shutdown()
        podman("rm", "-f", name, check=False)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--podman", required=True, help="the podman command line, with its storage options")
    parser.add_argument("--image", required=True)
    parser.add_argument("--repo", required=True)
    parser.add_argument("--measured", help="write the measured numbers here (JSON)")
    options = parser.parse_args()
    podman = Podman(options.podman)
    values = yaml.safe_load(open(os.path.join(options.repo, "chart", "values.yaml")))
    grace = int(values["terminationGracePeriodSeconds"])
    with tempfile.TemporaryDirectory(prefix="image-run-") as work:
        os.chmod(work, 0o755)
        parts = [("quick start", quick_start),
                 ("shutdown and tls", lambda *a: shutdown_and_tls(*a, grace)),
                 ("aot cache", aot_cache),
                 ("chart limit", chart_limit)]
        for label, part in parts:
            try:
                part(podman, options.image, options.repo, work)
            except Exception as e:  # one broken part fails the check, the next one still runs
                check(f"[{label}] ran to the end", False, str(e))
    if options.measured:
        with open(options.measured, "w") as f:
            json.dump(measured, f)
    print(f"image_run_check: {results['passed']} passed, {results['failed']} failed")
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
