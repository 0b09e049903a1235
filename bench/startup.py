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
CALLS calls; BENCH_PODMAN: the podman command line, default "podman"), beside the bare server
started in the same image (its runtime and entry point's flags: "image, bare server", and the same
with an AOT cache of its own made by one training run); BENCH_LAUNCHER=1 (the jar started by
bin/appset-mapper with an archive folder of this run's: the first run of serve, validate and test
trains, timed once; then every round uses the archives; beside it "bare+archive", the bare server
with a class archive or AOT cache of its own made the same way, so the archive's gain is not
credited to the jar alone).
"""
import http.client
import os
import shlex
import shutil
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
    if name.startswith("launcher"):
        cmd = ["bin/appset-mapper", "serve", "--mappings", "bench/mappings/fast.yaml", "--port", str(port),
               "--host", "127.0.0.1"]
        env.update(launcher_env())
        path = "/mappings/fast/api/v1/getparams.execute"
    elif name.startswith("bare"):  # "bare", or with its own archive: a class path of jars only
        cp = bare_jar_classpath() if name != "bare" else classpath
        cmd = [java, *flags, *extra, "-cp", cp, "io.github.appsetmapper.bench.BareUndertow", str(port), answer]
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
        # The launcher's training run is bash waiting on its JVM: read the JVM's memory.
        children = open(f"/proc/{proc.pid}/task/{proc.pid}/children").read().split()
        return ms, rss_mib(children[0] if "launcher-training" == name and children else proc.pid), load()
    finally:
        stop(proc, 600 if "training" in name else 30)  # writing the cache takes a while


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


def image_bare_command(port, cache=None):
    """The bare server in the image: its runtime and its entry point's JVM flags, without the jar's
    AOT cache (trained for the jar's class path, it does not apply to another) and without the
    jar's arguments; BareUndertow's class in a jar of its own, Undertow from the image's jar.
    cache: None, "train" (an AOT cache of its own written at exit, as the image's was made) or
    "use" (that cache)."""
    entry = subprocess.run([*podman, "image", "inspect", "-f", "{{range .Config.Entrypoint}}{{println .}}{{end}}",
                            image], capture_output=True, text=True, check=True).stdout.split()
    jvm = [f for f in entry[1:entry.index("-jar")] if not f.startswith("-XX:AOTCache=")]
    bare_jar_classpath()  # writes work/bare.jar
    out = os.path.join(work, "image-bare-cache")
    os.makedirs(out, exist_ok=True)
    os.chmod(out, 0o777)  # the image runs as 65532
    opts = ["--entrypoint", entry[0], "-v", f"{os.path.join(work, 'bare.jar')}:/bench/bare.jar:ro"]
    if cache == "train":
        opts += ["-v", f"{out}:/out"]
        jvm.append("-XX:AOTCacheOutput=/out/bare.aot")
    elif cache == "use":
        opts += ["-v", f"{out}:/out:ro"]
        jvm.append("-XX:AOTCache=/out/bare.aot")
    return opts, [*jvm, "-cp", "/bench/bare.jar:/app/appset-mapper.jar", "io.github.appsetmapper.bench.BareUndertow",
                  str(port), answer]


def serve_image(port, bare=False, cache=None):
    name = f"appset-mapper-startup-{os.getpid()}"
    run_opts, args = image_bare_command(port, cache) if bare else (
        ["-v", f"{os.path.abspath('bench/mappings/fast.yaml')}:/m/fast.yaml:ro"],
        ["serve", "--mappings", "/m", "--host", "127.0.0.1", "--port", str(port)])
    path = "/api/v1/getparams.execute" if bare else "/mappings/fast/api/v1/getparams.execute"
    start = time.monotonic_ns()
    subprocess.run([*podman, "run", "-d", "--rm", "--pull=never", "--name", name,
                    "--memory", str(chart_memory_limit()), "--network", "host", "--read-only",
                    "--tmpfs", "/tmp:rw,mode=1777,size=64m", "-e", f"APPSET_MAPPER_TOKEN={token}",
                    *run_opts, image, *args],
                   check=True, capture_output=True)
    try:
        ms = first_answer(start, port, path, None)
        many(port, path, calls)
        usage = subprocess.run([*podman, "stats", "--no-stream", "--format", "{{.MemUsage}}", name],
                               capture_output=True, text=True, check=True).stdout.split("/")[0].strip()
        if cache == "train":  # TERM, and wait while the JVM writes its cache
            subprocess.run([*podman, "stop", "-t", "600", name], capture_output=True)
            if not os.path.exists(os.path.join(work, "image-bare-cache", "bare.aot")):
                raise SystemExit("startup: the bare server's training run in the image wrote no cache")
        return ms, mib(usage), load()
    finally:
        subprocess.run([*podman, "rm", "-f", name], capture_output=True)


def bare_jar_classpath():
    """BareUndertow in a jar of its own beside the dependency jars: class-data archives take
    classes from jars only (a non-empty directory on the class path turns the archive off)."""
    bare_jar = os.path.join(work, "bare.jar")
    if not os.path.exists(bare_jar):
        import zipfile
        with zipfile.ZipFile(bare_jar, "w") as z:
            name = "io/github/appsetmapper/bench/BareUndertow.class"
            z.write(os.path.join("target/test-classes", name), name)
    return ":".join([bare_jar] + [e for e in classpath.split(":") if e.endswith(".jar")])


def launcher_env():
    """bin/appset-mapper on the bench's jar, Java and flags, with an archive folder of this run's."""
    home = os.path.dirname(os.path.dirname(os.path.realpath(shutil.which(java))))
    return {"APPSET_MAPPER_JAR": jar, "JAVA_HOME": home, "APPSET_MAPPER_JAVA_OPTS": " ".join(flags),
            "APPSET_MAPPER_CACHE": os.path.join(work, "launcher-cache")}


def cli(args, extra=(), launcher=False):
    start = time.monotonic_ns()
    cmd = ["bin/appset-mapper", *args[2:]] if launcher else [java, *flags, *extra, *args]
    r = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, **launcher_env()) if launcher else None)
    ms = (time.monotonic_ns() - start) / 1e6
    if r.returncode != 0:
        raise SystemExit(f"startup: {' '.join(args)} exited {r.returncode}: {r.stderr[-500:]}")
    return ms, load()


if os.environ.get("BENCH_DEBUG_KEEP"):
    print("work dir", work)
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

# bin/appset-mapper (BENCH_LAUNCHER=1): its first run of each command trains the archive; timed
# once here as what a user's first run costs, then every round uses the archive.
LAUNCHER = bool(os.environ.get("BENCH_LAUNCHER"))
BARE_ARCHIVE = ()
if LAUNCHER:
    if not os.environ.get("BENCH_CLI_ONLY"):
        add(("serve", "launcher, first run (trains)"), serve("launcher-training", 18298))
    for what in (["validate", "mappings"], ["test", "mappings"]):
        add(("cli", " ".join(what) + " (launcher, first run: trains)"), cli(["-jar", jar, *what], launcher=True))
    # Fairness: the bare server too with an archive of its own, made the way the launcher makes
    # one on this Java (an AOT cache from Java 25, a class-data sharing archive before).
    if not os.environ.get("BENCH_CLI_ONLY"):
        feature = int(subprocess.run([java, "-XshowSettings:properties", "-version"], capture_output=True,
                                     text=True).stderr.split("java.specification.version = ")[1].split()[0])
        bare_archive = os.path.join(work, "bare.archive")
        if feature >= 25:
            serve("bare-training", 18297, ("-XX:AOTCacheOutput=" + bare_archive,))
            BARE_ARCHIVE = ("-XX:AOTCache=" + bare_archive,)
        else:  # a static archive from the run's class list, as the launcher makes on Java 17 to 24
            serve("bare-training", 18297, ("-XX:DumpLoadedClassList=" + bare_archive + ".list",))
            subprocess.run([java, *flags, "-Xshare:dump", "-XX:SharedClassListFile=" + bare_archive + ".list",
                            "-XX:SharedArchiveFile=" + bare_archive, "-cp", bare_jar_classpath()],
                           check=True, capture_output=True)
            BARE_ARCHIVE = ("-XX:SharedArchiveFile=" + bare_archive,)

for rnd in range(rounds):
    sides = ["bare", "jar"] + ([cached] if aot_extra else []) + (["before"] if before else []) + (
        ["launcher", "bare+archive"] if LAUNCHER and BARE_ARCHIVE else [])
    if rnd % 2:
        sides.reverse()
    for i, side in enumerate([] if os.environ.get("BENCH_CLI_ONLY") else sides):
        add(("serve", side), serve(side, 18200 + 10 * rnd + i, aot_extra if side == cached else (
            BARE_ARCHIVE if side == "bare+archive" else ()),
                                   before if side == "before" else None))
    if image:  # the image and the bare server in the same image, in alternating order
        if rnd == 0:
            serve_image(18290, True, "train")
        image_sides = [("image", False, None), ("image, bare server", True, None),
                       ("image, bare server + its own AOT cache", True, "use")]
        for label, bare_side, cache in (image_sides if rnd % 2 == 0 else image_sides[::-1]):
            add(("serve", label), serve_image(18290, bare_side, cache))
    add(("cli", "java -version (floor)"), cli(["-version"]))
    for what in (["validate", "mappings"], ["test", "mappings"]):
        runs = [(" ".join(what), ["-jar", jar, *what], ())]
        if LAUNCHER:
            runs.append((" ".join(what) + " (launcher)", ["-jar", jar, *what], "launcher"))
        if aot_extra:
            runs.append((" ".join(what) + " +" + cached[4:], ["-jar", jar, *what], aot_extra))
        if CLI_FAST:
            runs.append((" ".join(what) + " +archive, C1", ["-jar", jar, *what], CLI_FAST))
        if before:
            runs.append((" ".join(what) + " (before)", ["-jar", before, *what], ()))
        for name, args, extra in (runs if rnd % 2 == 0 else runs[::-1]):  # alternate the order
            add(("cli", name), cli(args, launcher=True) if extra == "launcher" else cli(args, extra))

med = statistics.median
version = subprocess.run([java, "-version"], capture_output=True, text=True).stderr.splitlines()[0]
lines = [f"## Start and footprint (bench/startup, {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC)", "",
         f"{version}; flags {' '.join(flags)}; {rounds} rounds; {calls} calls before reading memory; "
         f"{os.cpu_count()} cores. Load average (1 min) beside each figure: the median of its readings, and the range.", "",
         "| server | first answer ms (median) | per round | RSS after calls MiB | load avg |",
         "| --- | --- | --- | --- | --- |"]
for (kind, side), rows in results.items():
    if kind != "serve":
        continue
    # Each side against the bare server on its own runtime: the image's against the bare server
    # started in the image, the rest against the bare server on the host's Java.
    ref_name = "image, bare server" if side.startswith("image") else "bare"
    ref = results.get(("serve", ref_name), [])
    loads = [r[2] for r in rows]
    ms = [r[0] for r in rows]
    mem = [r[1] for r in rows]
    in_image = side.startswith("image")
    mem_txt = f"{med(mem):.0f}" + (f" (container, limit {chart_memory_limit() / 2**20:.0f} MiB)" if in_image else "")
    ratio = "" if side == ref_name or not ref else f" ({med(ms) / med([b[0] for b in ref]):.2f}x {ref_name})"
    # Fairness: the side that uses an archive also against the bare server with an archive of its own.
    fair = {"launcher": "bare+archive", "image": "image, bare server + its own AOT cache"}.get(side)
    if fair and ("serve", fair) in results:
        ratio += f" ({med(ms) / med([b[0] for b in results[('serve', fair)]]):.2f}x {fair})"
    over = "" if side == ref_name or not ref else f" (+{med(mem) - med([b[1] for b in ref]):.0f} over {ref_name})"
    lines.append(f"| {side} | {med(ms):.0f}{ratio} | {', '.join(f'{x:.0f}' for x in ms)} | {mem_txt}{over}"
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
