"""Start and footprint, side by side in one run (issue 25): bash bench/startup

Per round, in an order that alternates so that a machine getting busier or quieter favours neither:
  - the bare Undertow server (bench/BareUndertow: the same bytes, no work) and the jar serving
    bench/mappings/fast.yaml are each started cold; the time from the process's start to its first
    200 answer to POST getparams is measured (polling every 5 ms), then CALLS more getparams are
    sent (4 callers) and the process's resident memory (VmRSS) read;
  - the CLI: `validate mappings/` and `test mappings/` (the catalogue), wall time of each run,
    against the JVM's own floor (`java -version` with the same flags).
The load average (1 min) is read beside every figure. Prints a markdown section.

Usage: startup.py OUT ROUNDS CALLS JAR CLASSPATH
Environment: BENCH_JAVA (the java binary, default java), BENCH_JVM_FLAGS (extra flags for both
sides, e.g. "-XX:+UseSerialGC -XX:TieredStopAtLevel=1"), BENCH_AOT=1 (Java 25 and later: the jar
side also runs with an AOT cache made by one training run first, as a third system), BENCH_CDS=1
(the same with Java 17's dynamic class-data sharing archive: -XX:ArchiveClassesAtExit, then
-XX:SharedArchiveFile),
BENCH_CLI_ONLY=1 (the CLI commands only, no server sides), BENCH_CLI_CDS=1 (the CLI commands also with
the flags docs/operations.md gives authors: a class archive trained by one `test` run, C1 only),
BENCH_BEFORE (another build's jar, e.g. the last release: measured in the same rounds as a
third server, "before", and its CLI commands beside), BENCH_IMAGE (a podman image name, or the
image tarball scripts/image-build writes, which bench/startup loads: the image side too, started
with `podman run` as the chart runs it (its memory limit from chart/values.yaml, read-only root,
/tmp a tmpfs, host network); memory is the container's cgroup usage from `podman stats` after
CALLS calls; BENCH_PODMAN: the podman command line, default "podman").
"""
import http.client
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import threading
import time

out, rounds, calls, jar, classpath = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
java = os.environ.get("BENCH_JAVA", "java")
flags = ["-XX:MaxRAM=512m", "-XX:MaxRAMPercentage=50", "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError"] + shlex.split(
    os.environ.get("BENCH_JVM_FLAGS", ""))
image = os.environ.get("BENCH_IMAGE", "")
before = os.environ.get("BENCH_BEFORE", "")
podman = shlex.split(os.environ.get("BENCH_PODMAN", "podman"))
token = "bench-token-0123456789"
body = '{"applicationSetName":"bench","input":{"parameters":{"name":"val1"}}}'
answer = '{"output":{"parameters":[{"name":"val1","count":"3","upper":"VAL1","app":"bench"}]}}'
work = tempfile.mkdtemp(prefix="startup.")


def load():
    return float(open("/proc/loadavg").read().split()[0])


def rss_mib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def post(port, path, conn=None):
    c = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    c.request("POST", path, body, {"Content-Type": "application/json", "Authorization": "Bearer " + token})
    r = c.getresponse()
    r.read()
    return r.status, c


def first_answer(start_ns, port, path, proc):
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise SystemExit(f"startup: the process on {port} exited with {proc.returncode}")
        try:
            status, c = post(port, path)
            c.close()
            if status == 200:
                return (time.monotonic_ns() - start_ns) / 1e6
            raise SystemExit(f"startup: {port} answered {status}")
        except (ConnectionError, OSError):
            time.sleep(0.005)
    raise SystemExit(f"startup: nothing answered on {port} within 120 s")


def many(port, path, n, callers=4):
    errors = []

    def caller(k):
        c = None
        for _ in range(k):
            status, c = post(port, path, c)
            if status != 200:
                errors.append(status)
        c.close()

    threads = [threading.Thread(target=caller, args=(n // callers,)) for _ in range(callers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise SystemExit(f"startup: {len(errors)} calls on {port} did not answer 200: {errors[:3]}")


def stop(proc, wait=30):
    proc.terminate()
    try:
        proc.wait(wait)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def serve(name, port, extra=(), jar_file=None):
    """Starts one side cold -> (ms to first answer, RSS MiB after CALLS calls, load avg)."""
    env = dict(os.environ, APPSET_MAPPER_TOKEN=token)
    if name == "bare":
        cmd = [java, *flags, "-cp", classpath, "io.github.appsetmapper.bench.BareUndertow", str(port), answer]
        path = "/api/v1/getparams.execute"
    else:
        cmd = [java, *flags, *extra, "-jar", jar_file or jar, "serve", "--mappings", "bench/mappings/fast.yaml",
               "--port", str(port), "--host", "127.0.0.1"]
        path = "/mappings/fast/api/v1/getparams.execute"
    log = open(os.path.join(work, f"{name}.log"), "ab")
    start = time.monotonic_ns()
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=log)
    try:
        ms = first_answer(start, port, path, proc)
        many(port, path, calls)
        return ms, rss_mib(proc.pid), load()
    finally:
        stop(proc, 600 if name == "aot-training" else 30)  # writing the cache takes a while


def chart_memory_limit():
    import yaml
    limit = yaml.safe_load(open("chart/values.yaml"))["resources"]["limits"]["memory"]
    units = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30}
    return int(limit[:-2]) * units[limit[-2:]] if limit[-2:] in units else int(limit)


def mib(text):
    """podman stats' "95.3MB" (decimal units) -> MiB."""
    units = {"kB": 1e3, "MB": 1e6, "GB": 1e9, "B": 1}
    for unit, factor in units.items():
        if text.endswith(unit):
            return float(text[: -len(unit)]) * factor / 2**20
    raise ValueError(text)


def serve_image(port):
    name = f"appset-mapper-startup-{os.getpid()}"
    start = time.monotonic_ns()
    subprocess.run([*podman, "run", "-d", "--rm", "--pull=never", "--name", name,
                    "--memory", str(chart_memory_limit()), "--network", "host", "--read-only",
                    "--tmpfs", "/tmp:rw,mode=1777,size=64m", "-e", f"APPSET_MAPPER_TOKEN={token}",
                    "-v", f"{os.path.abspath('bench/mappings/fast.yaml')}:/m/fast.yaml:ro",
                    image, "serve", "--mappings", "/m", "--host", "127.0.0.1", "--port", str(port)],
                   check=True, capture_output=True)
    try:
        ms = first_answer(start, port, "/mappings/fast/api/v1/getparams.execute", None)
        many(port, "/mappings/fast/api/v1/getparams.execute", calls)
        usage = subprocess.run([*podman, "stats", "--no-stream", "--format", "{{.MemUsage}}", name],
                               capture_output=True, text=True, check=True).stdout.split("/")[0].strip()
        return ms, mib(usage), load()
    finally:
        subprocess.run([*podman, "rm", "-f", name], capture_output=True)


def cli(args, extra=()):
    start = time.monotonic_ns()
    r = subprocess.run([java, *flags, *extra, *args], capture_output=True, text=True)
    ms = (time.monotonic_ns() - start) / 1e6
    if r.returncode != 0:
        raise SystemExit(f"startup: {' '.join(args)} exited {r.returncode}: {r.stderr[-500:]}")
    return ms, load()


aot_extra = ()
cached = "jar+aot" if os.environ.get("BENCH_AOT") else "jar+cds"
if os.environ.get("BENCH_AOT") or os.environ.get("BENCH_CDS"):
    # One training run: serve and answer CALLS calls; the cache (archive) is written at exit.
    cache = os.path.join(work, "app.aot")
    make, use = ("-XX:AOTCacheOutput=", "-XX:AOTCache=") if os.environ.get("BENCH_AOT") else (
        "-XX:ArchiveClassesAtExit=", "-XX:SharedArchiveFile=")
    serve("aot-training", 18299, (make + cache,))
    if not os.path.exists(cache):
        raise SystemExit(f"startup: the training run wrote no {cache}")
    aot_extra = (use + cache,)

# What docs/operations.md ("A faster CLI") gives authors: one run of `test` writes the archive.
CLI_FAST = ()
if os.environ.get("BENCH_CLI_CDS"):
    archive = os.path.join(work, "cli.jsa")
    cli(["-XX:ArchiveClassesAtExit=" + archive, "-Xlog:cds*=off", "-jar", jar, "test", "mappings"])
    CLI_FAST = ("-XX:SharedArchiveFile=" + archive, "-Xlog:cds*=off", "-XX:TieredStopAtLevel=1")

results = {}
def add(key, value):
    results.setdefault(key, []).append(value)

for rnd in range(rounds):
    sides = ["bare", "jar"] + ([cached] if aot_extra else []) + (["before"] if before else [])
    if rnd % 2:
        sides.reverse()
    for i, side in enumerate([] if os.environ.get("BENCH_CLI_ONLY") else sides):
        add(("serve", side), serve(side, 18200 + 10 * rnd + i, aot_extra if side == cached else (),
                                   before if side == "before" else None))
    if image:
        add(("serve", "image"), serve_image(18290))
    add(("cli", "java -version (floor)"), cli(["-version"]))
    for what in (["validate", "mappings"], ["test", "mappings"]):
        runs = [(" ".join(what), ["-jar", jar, *what], ())]
        if aot_extra:
            runs.append((" ".join(what) + " +" + cached[4:], ["-jar", jar, *what], aot_extra))
        if CLI_FAST:
            runs.append((" ".join(what) + " +archive, C1", ["-jar", jar, *what], CLI_FAST))
        if before:
            runs.append((" ".join(what) + " (before)", ["-jar", before, *what], ()))
        for name, args, extra in (runs if rnd % 2 == 0 else runs[::-1]):  # alternate the order
            add(("cli", name), cli(args, extra))

med = statistics.median
version = subprocess.run([java, "-version"], capture_output=True, text=True).stderr.splitlines()[0]
lines = [f"## Start and footprint (bench/startup, {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC)", "",
         f"{version}; flags {' '.join(flags)}; {rounds} rounds; {calls} calls before reading memory; "
         f"{os.cpu_count()} cores. Load average (1 min) beside each figure: the median of its readings, and the range.", "",
         "| server | first answer ms (median) | per round | RSS after calls MiB | load avg |",
         "| --- | --- | --- | --- | --- |"]
bare = results.get(("serve", "bare"), [])
for (kind, side), rows in results.items():
    if kind != "serve":
        continue
    loads = [r[2] for r in rows]
    ms = [r[0] for r in rows]
    mem = [r[1] for r in rows]
    mem_txt = f"{med(mem):.0f}" if side != "image" else f"{med(mem):.0f} (container, limit {chart_memory_limit() / 2**20:.0f} MiB)"
    ratio = "" if side == "bare" else f" ({med(ms) / med([b[0] for b in bare]):.2f}x bare)"
    lines.append(f"| {side} | {med(ms):.0f}{ratio} | {', '.join(f'{x:.0f}' for x in ms)} | {mem_txt}"
                 f"{'' if side in ('bare', 'image') else f' (+{med(mem) - med([b[1] for b in bare]):.0f} over bare)'}"
                 f" | {med(loads):.1f} ({min(loads):.1f}-{max(loads):.1f}) |")
lines += ["", "| command | wall ms (median) | per round | load avg |", "| --- | --- | --- | --- |"]
for (kind, what), rows in results.items():
    if kind != "cli":
        continue
    loads = [r[1] for r in rows]
    lines.append(f"| `{what}` | {med([r[0] for r in rows]):.0f} | {', '.join(f'{r[0]:.0f}' for r in rows)} | "
                 f"{med(loads):.1f} ({min(loads):.1f}-{max(loads):.1f}) |")
text = "\n".join(lines) + "\n"
print(text)
with open(out, "a") as f:
    f.write(text + "\n")
