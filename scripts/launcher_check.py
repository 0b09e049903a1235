"""Checks bin/appset-mapper (the launcher with a class archive per command) on the Java of
JAVA_HOME, against plain `java -jar` on the same jar: python3 scripts/launcher_check.py JAR

Run by scripts/test on Temurin 25 (an AOT cache) and on Java 17 (a class-data sharing archive).
What it holds the launcher to (docs/operations.md, "The launcher"):
  - the same stdout, stderr and exit status as `java -jar`, on the first run (which trains) and
    on later runs (which map the archive), for a command that succeeds and one that fails;
  - the first run leaves one archive; a later run maps classes from it (-Xlog:class+load), on
    Java 17 to 24 every class of the jar and the JDK (a static archive: picocli's too);
  - a run that maps its archive starts few programs before the JVM (where strace is installed);
  - a new build of the jar trains a new archive and removes the old one of its slot;
  - `serve` stopped by TERM during its training run exits 0 and leaves a complete archive;
  - TERM while the archive is made after the command (Java 25's create step, 17's -Xshare:dump)
    exits with the command's status and leaves nothing;
  - a folder another user may write is refused (one line on stderr), and the command still runs;
  - an archive changed after it was checked (truncated, bytes flipped) is not mapped: the command
    runs as java -jar and a new archive is trained; a read-only folder's archive is mapped, with
    no line; a killed training run's partial files are removed, a live one's kept;
  - APPSET_MAPPER_ARCHIVE=0 and commands that are not worth an archive run plain;
  - stopping the launcher's process group stops the training JVM; the JVMs after the command do
    not get the flags that write files (a log file named in the flags is the command's).
"""
import glob
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
import urllib.request

jar = os.path.abspath(sys.argv[1])
java_home = os.environ["JAVA_HOME"]
launcher = os.path.abspath("bin/appset-mapper")
work = tempfile.mkdtemp(prefix="launcher-check.")
failures = []
passed = 0


def check(ok, what):
    global passed
    if ok:
        passed += 1
    else:
        failures.append(what)
        print(f"FAIL {what}", file=sys.stderr)


def feature():
    out = subprocess.run([f"{java_home}/bin/java", "-XshowSettings:properties", "-version"],
                         capture_output=True, text=True).stderr
    return int(out.split("java.specification.version = ")[1].split()[0])


def env(cache, **extra):
    return dict(os.environ, JAVA_HOME=java_home, APPSET_MAPPER_JAR=copy, APPSET_MAPPER_CACHE=cache, **extra)


def plain(*args):
    r = subprocess.run([f"{java_home}/bin/java", "-jar", copy, *args], capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def launch(cache, *args, **extra):
    r = subprocess.run([launcher, *args], capture_output=True, text=True, env=env(cache, **extra))
    return r.returncode, r.stdout, r.stderr


def archives(cache):
    """The files of a folder but the stamps (NAME.ok) beside the archives."""
    return sorted(os.path.basename(p) for p in glob.glob(os.path.join(cache, "*")) if not p.endswith(".ok"))


version = feature()
suffix = ".aot" if version >= 25 else ".jsa"
copy = os.path.join(work, "appset-mapper.jar")  # a jar of our own: its time is changed below
shutil.copy(jar, copy)
cache = os.path.join(work, "cache")

# 1. The same output and status as `java -jar`, trained and then mapped, success and failure.
for args in (["validate", "mappings"], ["test", "mappings"], ["validate", "/nonexistent"],
             ["run", "samples/pr-digests/pr-digests.yaml", "--replay", "samples/pr-digests/pr-digests.test.yaml",
              "--input", "branch=feature-branch-1"]):
    expected = plain(*args)
    for attempt in ("first run (trains)", "second run (maps the archive)"):
        got = launch(cache, *args)
        check(got == expected, f"{' '.join(args)}, {attempt}: {got[0]} {got[1][-300:]!r} {got[2][-300:]!r} "
                               f"differs from java -jar: {expected[0]} {expected[1][-300:]!r} {expected[2][-300:]!r}")
names = archives(cache)
check(len([n for n in names if n.startswith("validate-") and n.endswith(suffix)]) == 1,
      f"one validate archive ({suffix}) after the runs: {names}")
check(not [n for n in names if "partial" in n], f"no partial file left: {names}")
check(all(os.path.exists(os.path.join(cache, n + ".ok")) for n in names if n.endswith(suffix)),
      f"each archive has its stamp: {os.listdir(cache)}")
check(stat.S_IMODE(os.stat(cache).st_mode) == 0o700, f"the folder is made 0700: {oct(os.stat(cache).st_mode)}")

# 2. A later run maps classes from the archive.
log = os.path.join(work, "classes.txt")
for _ in range(2):  # the flags are part of the archive's name: the first of these trains
    launch(cache, "validate", "mappings", APPSET_MAPPER_JAVA_OPTS=f"-Xlog:class+load:file={log}")
lines = open(log).read().splitlines()
mapped = [line for line in lines if "shared objects file (top)" in line or "source: shared objects file" in line]
ours = [line for line in mapped if "io.github.appsetmapper." in line]
check(len(ours) > 100, f"the project's classes come from the archive: {len(ours)} of {len(lines)} loaded")
if version < 25:
    # A static archive (a class list, then -Xshare:dump) holds picocli's classes, class files of
    # Java 5 that a dynamic archive (-XX:ArchiveClassesAtExit) skips, and the JDK's of the run: no
    # class comes from the jar or the runtime's modules (a dynamic one left 177 to the jar).
    # The JDK's random-number classes load only when threads contend (ConcurrentHashMap's counter
    # cells ask ThreadLocalRandom for a probe): a training run that met no contention cannot hold
    # them, and a check run that meets it loaded them from the runtime (CI, 2026-12-03).
    contention = ("java.util.Random ", "java.util.random.", "java.util.concurrent.ThreadLocalRandom",
                  "jdk.internal.util.random.")
    unshared = [line.split("]")[-1] for line in lines if "source: file:" in line or "source: jar:" in line
                or ("source: jrt:" in line and not any(c in line for c in contention))]
    check(not unshared, f"every class of the jar and the JDK comes from the static archive: {unshared[:5]}")

# A later run is mostly the JVM: the script itself starts few programs before it (strace, where
# there is one: each is time on every run; it started 21 before the JVM, dirname, sed, id and cut
# among them).
if shutil.which("strace"):
    trace = os.path.join(work, "exec.txt")
    # The flags of the runs above, whose archive is in place (other flags would train anew).
    subprocess.run(["strace", "-f", "-qq", "-e", "trace=execve", "-o", trace, launcher, "validate", "mappings"],
                   capture_output=True, env=env(cache, APPSET_MAPPER_JAVA_OPTS=f"-Xlog:class+load:file={log}"))
    started = [line.split('"')[1] for line in open(trace) if "execve(" in line and "= -1" not in line]
    # The script, bash, readlink twice, ls for each of the folder's 4 levels, stat, cksum, java.
    check(len(started) <= 12, f"a run that maps its archive starts at most 12 programs: {started}")

# 3. A new build of the jar (another time) trains a new archive and replaces the old one.
before = [n for n in archives(cache) if n.startswith("validate-")]
os.utime(copy, (time.time() + 60, time.time() + 60))
launch(cache, "validate", "mappings")
after = [n for n in archives(cache) if n.startswith("validate-")]
check(len(after) == 1 and after != before, f"a new jar replaces the archive: {before} -> {after}")

# 4. serve: TERM during the training run, exit 0, a complete archive.
serve_log = open(os.path.join(work, "serve.log"), "w")


def start_serve(folder, **popen):
    """serve through the launcher with `folder` as its cache, until ready: (process, port, ready)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = subprocess.Popen([launcher, "serve", "--mappings", "samples/pr-digests", "--replay",
                             "samples/pr-digests/pr-digests.test.yaml", "--host", "127.0.0.1", "--port", str(port)],
                            env=env(folder, APPSET_MAPPER_TOKEN="check-token"), stdout=serve_log, stderr=serve_log,
                            **popen)
    deadline = time.monotonic() + 180
    ready = False
    while time.monotonic() < deadline and proc.poll() is None and not ready:
        try:
            ready = urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=5).status == 200
        except OSError:
            time.sleep(0.1)
    return proc, port, ready


def serve_then(folder, sig):
    """serve through the launcher with `folder` as its cache, ready, then `sig`: (ready, status)."""
    proc, _, ready = start_serve(folder)
    proc.send_signal(sig)
    try:
        return ready, proc.wait(300)
    except subprocess.TimeoutExpired:
        proc.kill()
        return ready, "killed after 300 s"


ready, code = serve_then(cache, signal.SIGTERM)
check(ready, "serve through the launcher becomes ready")
check(code == 0, f"serve's training run stopped by TERM exits 0: {code}")
serve_archives = [n for n in archives(cache) if n.startswith("serve-")]
check(len(serve_archives) == 1 and serve_archives[0].endswith(suffix),
      f"serve's training run leaves one archive: {archives(cache)}")

# 5. A folder another user may write: refused, the command still runs as `java -jar`.
shared = os.path.join(work, "shared")
os.makedirs(shared)
os.chmod(shared, 0o777)
expected = plain("validate", "mappings")
code, out, err = launch(shared, "validate", "mappings")
check((code, out) == expected[:2], f"with a shared folder the command runs as java -jar: {code}")
check(err.startswith("appset-mapper: no class archive: ") and "writable by you alone" in err
      and err.count("\n") == 1,
      f"a shared folder is refused in one line: {err[:200]!r}")
check(archives(shared) == [], f"nothing written to a shared folder: {archives(shared)}")

# A folder another user owns (root can make one), and a link to a folder of one's own (used).
if os.getuid() == 0:
    theirs = os.path.join(work, "theirs")
    os.makedirs(theirs, mode=0o700)
    os.chown(theirs, 65534, 65534)
    code, out, err = launch(theirs, "validate", "mappings")
    check((code, out) == expected[:2] and "writable by you alone" in err and archives(theirs) == [],
          f"a folder another user owns is refused: {code} {err[:200]!r} {archives(theirs)}")
mine = os.path.join(work, "mine")
os.makedirs(mine, mode=0o700)
os.symlink(mine, os.path.join(work, "link"))
code, out, err = launch(os.path.join(work, "link"), "validate", "mappings")
check((code, out, err) == expected and len(archives(mine)) == 1,
      f"a link to a folder of one's own is used: {code} {err[:200]!r} {archives(mine)}")

# 6. A run that fails keeps no archive (a barely trained one would be kept for good), and the
# next run trains again.
fails = os.path.join(work, "fails")
expected_fail = plain("validate", "/nonexistent")
check(launch(fails, "validate", "/nonexistent") == expected_fail and archives(fails) == [],
      f"a failing first run keeps no archive: {archives(fails)}")

# 7. A folder above the cache that another user may change (not sticky) is refused; a sticky one
# (as /tmp) is not.
for parent_mode, used in ((0o777, False), (0o1777, True)):
    parent = os.path.join(work, f"parent-{parent_mode:o}")
    os.makedirs(parent)
    os.chmod(parent, parent_mode)
    code, out, err = launch(os.path.join(parent, "cache"), "validate", "mappings")
    if used:
        check((code, out, err) == expected and len(archives(os.path.join(parent, "cache"))) == 1,
              f"a sticky world-writable parent is fine: {err[:200]!r}")
    else:
        check((code, out) == expected[:2] and "may be changed by another user" in err
              and archives(os.path.join(parent, "cache")) == [],
              f"a world-writable parent is refused: {code} {err[:200]!r}")

# 8. A jar written again with the same size and time is another build: a new archive.
before = [n for n in archives(cache) if n.startswith("validate-")]
stamp = os.stat(copy)
content = open(copy, "rb").read()
os.remove(copy)
open(copy, "wb").write(content)
os.utime(copy, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
launch(cache, "validate", "mappings")
after = [n for n in archives(cache) if n.startswith("validate-")]
check(after != before and len(after) == 1, f"a jar rewritten with the same size and time trains anew: {before} -> {after}")

# 9. Ctrl-C (SIGINT) during serve's training run: the status java -jar gives (130), no archive.
interrupted = os.path.join(work, "interrupted")
ready, code = serve_then(interrupted, signal.SIGINT)
check(ready and code == 130, f"Ctrl-C during serve's training run exits 130 as java -jar does: {code}")
check(archives(interrupted) == [], f"an interrupted training run keeps nothing: {archives(interrupted)}")

# The archive is made by one more JVM after the command (Java 25: AOTMode=create; 17 to 24:
# -Xshare:dump from the class list): a TERM then stops that step, leaves nothing and exits with the
# command's status (it exited 143 and left 55 MB of partial files).
creating = os.path.join(work, "creating")
step = "AOTMode=create" if version >= 25 else "Xshare:dump"
proc = subprocess.Popen([launcher, "validate", "mappings"], env=env(creating),
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
deadline = time.monotonic() + 180
seen = False
while time.monotonic() < deadline and proc.poll() is None and not seen:
    seen = subprocess.run(["pgrep", "-f", f"{step}.*{creating}"], capture_output=True).returncode == 0
    time.sleep(0.02)
proc.send_signal(signal.SIGTERM)
code = proc.wait(300)
left = subprocess.run(["pgrep", "-f", f"{step}.*{creating}"], capture_output=True).returncode == 0
check(seen and code == 0 and archives(creating) == [] and not left,
      f"TERM while the archive is made ({step}): exit 0, nothing left: seen {seen}, {code}, "
      f"{archives(creating)}, left {left}")

# 12. A supervisor that stops the launcher's process group (systemd, timeout -s KILL, a CI step)
# stops the training JVM with it: the JVM ran in a group of its own and served on, orphaned.
proc, group_port, ready = start_serve(os.path.join(work, "grouped"), start_new_session=True)
os.killpg(proc.pid, signal.SIGKILL)
proc.wait(60)
deadline = time.monotonic() + 120
still = True
while still and time.monotonic() < deadline:
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{group_port}/healthz", timeout=5)
        time.sleep(0.2)
    except OSError:
        still = False
check(ready and not still, f"KILL to the launcher's process group during training stops the JVM too: "
                           f"ready {ready}, still answering {still}")
if still:
    subprocess.run(["pkill", "-KILL", "-f", "--", f"--port {group_port}"])

# 13. The JVMs that make and check the archive after the command do not get the flags that write
# files: a class log named in APPSET_MAPPER_JAVA_OPTS is the command's (the check JVM's `-version`
# wrote over it, a log of none of the project's classes; a GC log or a recording the same).
logged = os.path.join(work, "logged")
own_log = os.path.join(work, "own-classes.txt")
code, out, err = launch(logged, "validate", "mappings", APPSET_MAPPER_JAVA_OPTS=f"-Xlog:class+load:file={own_log}")
ours_logged = [line for line in open(own_log) if "io.github.appsetmapper.cli." in line]
check(code == 0 and len(archives(logged)) == 1 and ours_logged,
      f"a training run's own log file is the command's, not the archive step's: {code} {archives(logged)} "
      f"{len(ours_logged)} of the project's classes logged")

# 10. No HOME and no setting: no folder anywhere, plain. -Xshare in the flags: plain.
no_home = {k: v for k, v in env(cache).items() if k not in ("HOME", "XDG_CACHE_HOME", "APPSET_MAPPER_CACHE")}
r = subprocess.run([launcher, "validate", "mappings"], capture_output=True, text=True, env=no_home)
check((r.returncode, r.stdout, r.stderr) == expected and not os.path.exists("/nonexistent"),
      "without HOME the command runs plain and makes no folder")
check(launch(os.path.join(work, "xshare"), "validate", "mappings", APPSET_MAPPER_JAVA_OPTS="-Xshare:off")
      == expected and not os.path.exists(os.path.join(work, "xshare")), "-Xshare in the flags runs plain")

# 11. Opting out, and a command not worth an archive: plain.
empty = os.path.join(work, "optout")
check(launch(empty, "validate", "mappings", APPSET_MAPPER_ARCHIVE="0")[:2] == expected[:2]
      and not os.path.exists(empty), "APPSET_MAPPER_ARCHIVE=0 runs plain and writes nothing")
check(launch(empty, "--version") == plain("--version") and not os.path.exists(empty),
      "--version runs plain and writes nothing")
flags_file = os.path.join(work, "flags.txt")
open(flags_file, "w").write("-XX:+UseSerialGC\n")
vm_options = os.path.join(work, "vmoptions")
check(launch(vm_options, "validate", "mappings", APPSET_MAPPER_JAVA_OPTS=f"-XX:VMOptionsFile={flags_file}")[:2]
      == expected[:2] and not os.path.exists(vm_options),
      "flags from a file (-XX:VMOptionsFile) run plain: the archive's JVMs would get its file-writing flags")
check(launch(empty, "--version", CDPATH=".:/tmp") == plain("--version"),
      "an exported CDPATH changes nothing (cd printed the folder into the jar's path)")

# 14. An archive changed after it was checked (truncated, bytes changed), which the JVM refuses or
# crashes on (SIGSEGV, exit 134, on every later run): not mapped; the command runs as java -jar,
# and trains a new archive with its stamp (NAME.ok, newer than the archive).
damaged = os.path.join(work, "damaged")
launch(damaged, "validate", "mappings")
for damage in ("truncate", "flip bytes"):
    built = [p for p in glob.glob(os.path.join(damaged, "validate-*" + suffix))]
    check(len(built) == 1 and os.path.exists(built[0] + ".ok"), f"an archive and its stamp: {archives(damaged)}")
    if len(built) != 1:
        break
    os.chmod(built[0], 0o600)  # Java 17 writes it read-only
    with open(built[0], "r+b") as f:
        if damage == "truncate":
            f.truncate(100_000)
        else:
            for offset in (100, 1_000_000, 10_000_000):  # each crashed one Java or the other
                f.seek(offset)
                f.write(b"\xde\xad\xbe\xef" * 2)
    got = launch(damaged, "validate", "mappings")
    rebuilt = glob.glob(os.path.join(damaged, "validate-*" + suffix))
    check(got == expected and len(rebuilt) == 1 and os.path.getsize(rebuilt[0]) > 1_000_000
          and os.path.exists(rebuilt[0] + ".ok")
          and os.path.getmtime(rebuilt[0] + ".ok") > os.path.getmtime(rebuilt[0]),
          f"an archive {damage}: the command runs as java -jar and the archive is trained again: "
          f"{got[0]} {got[2][-300:]!r} {archives(damaged)}")

# 15. A read-only folder (by its mode, for a user other than root): its valid archive is mapped,
# and no line is printed on any run (it printed "is not writable" on every run and used none).
if os.getuid() == 0 and shutil.which("setpriv"):
    as_user = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    shared_root = tempfile.mkdtemp(prefix="launcher-check-ro.")
    os.chmod(shared_root, 0o755)
    # The user reads nothing from the clone: a clone in a folder only root may enter (mktemp -d
    # makes 0700) would fail every run for want of the launcher, not for the archive.
    their_jar = os.path.join(shared_root, "appset-mapper.jar")
    shutil.copy(copy, their_jar)
    their_launcher = os.path.join(shared_root, "appset-mapper")
    shutil.copy(launcher, their_launcher)
    their_mappings = os.path.join(shared_root, "mappings")
    shutil.copytree("mappings", their_mappings)
    for root, dirs, files in os.walk(shared_root):
        for name in dirs:
            os.chmod(os.path.join(root, name), 0o755)
        for name in files:
            os.chmod(os.path.join(root, name), 0o755 if name == "appset-mapper" else 0o644)
    read_only = os.path.join(shared_root, "cache")
    logs = os.path.join(shared_root, "logs")
    for folder in (read_only, logs):
        os.makedirs(folder, mode=0o700)
        os.chown(folder, 65534, 65534)
    ro_log = os.path.join(logs, "classes.txt")
    ro_env = dict(env(read_only), APPSET_MAPPER_JAR=their_jar, HOME=shared_root,
                  APPSET_MAPPER_JAVA_OPTS=f"-Xlog:class+load:file={ro_log}")
    cmd = as_user + [their_launcher, "validate", their_mappings]
    subprocess.run(cmd, capture_output=True, env=ro_env)  # trains, the folder writable
    os.chmod(read_only, 0o500)
    runs = [subprocess.run(cmd, capture_output=True, text=True, env=ro_env) for _ in range(2)]
    ro_lines = open(ro_log).readlines() if os.path.exists(ro_log) else []
    mapped_ro = [line for line in ro_lines if "io.github.appsetmapper." in line and "shared objects file" in line]
    check(all(r.returncode == 0 and r.stderr == "" for r in runs) and len(mapped_ro) > 100,
          f"a read-only folder's archive is mapped, with no line: {[r.stderr[:200] for r in runs]} "
          f"{len(mapped_ro)} classes mapped")
    os.chmod(read_only, 0o700)
    for left in glob.glob(os.path.join(read_only, "*")):
        os.remove(left)
    os.chmod(read_only, 0o500)
    plain_ro = subprocess.run(cmd, capture_output=True, text=True, env=ro_env)
    check(plain_ro.returncode == 0 and plain_ro.stderr == "" and os.listdir(read_only) == [],
          f"a read-only folder without an archive: the command runs plain, no line: {plain_ro.stderr[:200]!r}")
    shutil.rmtree(shared_root, ignore_errors=True)
else:
    ro = os.path.join(work, "read-only")
    launch(ro, "validate", "mappings")
    os.chmod(ro, 0o500)
    got = [launch(ro, "validate", "mappings") for _ in range(2)]
    check(all(g == expected for g in got), f"a read-only folder: no line, java -jar's output: {got[0][2][:200]!r}")
    os.chmod(ro, 0o700)

# 16. What a killed training run left (NAME.PID.partial*) is removed when its launcher is gone, by
# the next training run; a live one's (serve's training holds its class list as it serves) is kept.
partials = os.path.join(work, "partials")
proc, _, ready = start_serve(partials)
live = [p for p in glob.glob(os.path.join(partials, "*.partial*"))]
dead_pid = subprocess.Popen(["true"])
dead_pid.wait()
stale = os.path.join(partials, f"validate-1-2{suffix}.{dead_pid.pid}.partial.classlist")
open(stale, "w").write("x" * 1000)
launch(partials, "validate", "mappings")  # trains: the leftovers are looked at
# Java 25 writes serve's AOT configuration as it exits: a list to keep only on 17 to 24.
check(ready and (live or version >= 25) and all(os.path.exists(p) for p in live) and not os.path.exists(stale),
      f"a dead launcher's partial file is removed, a live serve's kept: live {live}, {archives(partials)}")
proc.send_signal(signal.SIGTERM)
code = proc.wait(300)
check(code == 0 and len(glob.glob(os.path.join(partials, "serve-*" + suffix))) == 1
      and not glob.glob(os.path.join(partials, "*.partial*")),
      f"serve's training, its list kept meanwhile, still makes its archive: {code} {archives(partials)}")

# 17. A flag or a folder the JVM refuses at start: the command's output and status are java -jar's
# on every run (Java 25's training run, its console off, printed nothing and exited 1), and the
# leftovers of a dead launcher go on a run that trains nothing.
colon = os.path.join(work, "home:colon")
first, second = launch(colon, "validate", "mappings"), launch(colon, "validate", "mappings")
check(first[:2] == expected[:2] and second[:2] == expected[:2],
      f"a folder whose path holds ':' runs the command: {first[0]} {first[1][:80]!r} {first[2][:200]!r}")
bad_opts = "-XX:+UseSerialGC -XX:+UseG1GC"
refused = subprocess.run([f"{java_home}/bin/java", *bad_opts.split(), "-jar", copy, "validate", "mappings"],
                         capture_output=True, text=True)
got = launch(os.path.join(work, "badopts"), "validate", "mappings", APPSET_MAPPER_JAVA_OPTS=bad_opts)
check(got == (refused.returncode, refused.stdout, refused.stderr) and "garbage collectors" in got[1] + got[2],
      f"flags the JVM refuses: java -jar's error and status: {got[0]} {(got[1] + got[2])[:200]!r}")
dead = subprocess.Popen(["true"])
dead.wait()
left = os.path.join(cache, f"validate-1-2{suffix}.{dead.pid}.partial.classlist")
open(left, "w").write("x")
check(launch(cache, "validate", "mappings")[:2] == expected[:2] and not os.path.exists(left),
      f"a dead launcher's leftover is removed by a run that maps its archive: {archives(cache)}")

shutil.rmtree(work, ignore_errors=True)
print(f"launcher check (Java {version}, {suffix}): {passed} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
