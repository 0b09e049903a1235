"""bench/latency: added latency over a 20 ms upstream, side by side. See bench/latency.

Usage: latency.py OUT TOKEN upstream=URL=PID name=URL=PID ...
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile

out, token = sys.argv[1], sys.argv[2]
systems = [a.split("=", 2) for a in sys.argv[3:]]
upstream_port = systems[0][1].split(":")[2].split("/")[0]
seconds = int(os.environ.get("BENCH_SECONDS", "10"))
rounds = int(os.environ.get("BENCH_ROUNDS", "3"))
warm = int(os.environ.get("BENCH_WARM", "60"))
level_warm = int(os.environ.get("BENCH_LEVEL_WARM", "10"))


def lua(direct):
    f = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
    if direct:  # GET /info/v<n>: a new path per request, as the mapper calls it
        f.write('local n = 0\nrequest = function()\n  n = n + 1\n'
                '  return wrk.format("GET", "/info/v" .. n)\nend\n')
    else:  # a new input per request: no cache, no coalescing
        f.write('local n = 0\nwrk.method = "POST"\n'
                'wrk.headers["Content-Type"] = "application/json"\n'
                f'wrk.headers["Authorization"] = "Bearer {token}"\n'
                'request = function()\n  n = n + 1\n  return wrk.format(nil, nil, nil, '
                '\'{"applicationSetName":"bench","input":{"parameters":{"key1":"v\' .. n .. \'"}}}\')\nend\n')
    f.close()
    return f.name


DIRECT, VARY = lua(True), lua(False)


def alive(pid, name):
    if not os.path.exists(f"/proc/{pid}"):
        sys.exit(f"bench: {name} (pid {pid}) ended during the run; its log is lost with the run's "
                 "directory: run it alone to see why")


def on_cpu(pid, io_only=False, names=None):
    """Nanoseconds each thread has spent on a CPU, by thread id: schedstat's first field, exact.
    (/proc/PID/stat's utime + stime are sampled at each clock tick and charged to whichever thread
    the tick finds: at one caller, with the server idle most of the time, they said about 2 ms a
    request, mostly system time of a worker.)"""
    spent = {}
    for t in os.listdir(f"/proc/{pid}/task"):
        try:
            comm = open(f"/proc/{pid}/task/{t}/comm").read()
            if io_only and "I/O" not in comm:
                continue
            if names and not any(n in comm for n in names):
                continue
            spent[t] = int(open(f"/proc/{pid}/task/{t}/schedstat").read().split()[0])
        except (OSError, ValueError):
            continue
    return spent


def cpu_between(before, after):
    """Seconds on a CPU between two on_cpu readings (a thread that ended meanwhile is not counted)."""
    return sum(ns - before.get(t, 0) for t, ns in after.items()) / 1e9


def connections(pid):
    """Connections this process opened to the upstream so far (its sockets to the port)."""
    t = subprocess.run(["ss", "-tnp", "state", "established", f"dport = :{upstream_port}"],
                       capture_output=True, text=True).stdout
    return sum(1 for line in t.splitlines() if f"pid={pid}," in line)


def rss_mib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def wrk(url, conns, secs):
    direct = url.endswith("/info/")
    target = url[: -len("/info/")] if direct else url
    t = subprocess.run(["taskset", "-c", "1", "wrk", "-t1", f"-c{conns}", f"-d{secs}s", "--latency",
                        "-s", DIRECT if direct else VARY, target],
                       capture_output=True, text=True, check=True).stdout
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", t)
    if bad:
        sys.exit(f"bench: {url}: {bad.group(0)}")

    def pct(p):
        m = re.search(rf"\s{p}%\s+([\d.]+)(us|ms|s)\b", t)
        v = float(m.group(1))
        return v / 1000 if m.group(2) == "us" else v * 1000 if m.group(2) == "s" else v

    return int(re.search(r"(\d+) requests in", t).group(1)), pct(50), pct(99)


# The JIT's compiler threads (and the VM thread, where SerialGC's pauses and safepoints run) share
# the server's CPU with the requests: their CPU per request is reported beside the rest, and the
# warm-up goes on in 5 s windows until the compilers use under 2% of a window (BENCH_JIT_CAP s
# more at most, default 60): a C2 compile of 0.5 s on the server's one CPU was the slow requests
# of a one-caller round that followed a 20 s warm-up.
COMPILERS, VM = ("CompilerThre",), ("VM Thread",)
jit_cap = int(os.environ.get("BENCH_JIT_CAP", "60"))
warm_windows = {}
for name, url, pid in systems[1:]:
    alive(pid, name)
    wrk(url, 10, warm)
    windows, spent = [], 0
    while True:
        before = on_cpu(pid, names=COMPILERS)
        wrk(url, 10, 5)
        windows.append(cpu_between(before, on_cpu(pid, names=COMPILERS)) * 1000)
        spent += 5
        if windows[-1] < 0.02 * 5000 or spent >= jit_cap:
            break
    warm_windows[name] = windows

lines = [f"# Added latency over a 20 ms upstream ({subprocess.run(['date', '-u', '+%Y-%m-%dT%H:%MZ'], capture_output=True, text=True).stdout.strip()}, "
         f"load average {' '.join(open('/proc/loadavg').read().split()[:3])})", "",
         f"wrk, a new input per request, {rounds} rounds of {seconds} s, medians; each jar warmed "
         f"{warm} s at 10 connections first, then {level_warm} s at each caller count before its "
         "rounds (unmeasured). Server CPU per request from /proc/PID/task/*/schedstat "
         "(nanoseconds on a CPU; all threads, and the IO threads alone). Servers run with: "
         f"`{os.environ.get('BENCH_SERVER_DESCRIBED', 'java')}`.", "",
         "| callers | system | p50 / p99 ms | added p50 / p99 ms | CPU us/request | IO threads us/request | JIT / VM thread us/request | upstream connections (most after a round) |",
         "| --- | --- | --- | --- | --- | --- | --- | --- |"]
for conns in (1, 10, 50):
    got = {name: [] for name, _, _ in systems}
    opened = {}
    for name, url, pid in systems[1:] if level_warm > 0 else []:
        wrk(url, conns, level_warm)
    for r in range(rounds):
        order = systems[r % len(systems):] + systems[:r % len(systems)]
        for name, url, pid in order:
            before, io_before = on_cpu(pid), on_cpu(pid, True)
            jit_before, vm_before = on_cpu(pid, names=COMPILERS), on_cpu(pid, names=VM)
            n, p50, p99 = wrk(url, conns, seconds)
            # Read right after its own round: a pool that closes idle connections (nginx's
            # upstream after the stub's idle timeout) showed none when read after every round.
            opened[name] = max(opened.get(name, 0), 0 if name == "upstream" else connections(pid))
            got[name].append((p50, p99, cpu_between(before, on_cpu(pid)) / n * 1e6,
                              cpu_between(io_before, on_cpu(pid, True)) / n * 1e6,
                              cpu_between(jit_before, on_cpu(pid, names=COMPILERS)) / n * 1e6,
                              cpu_between(vm_before, on_cpu(pid, names=VM)) / n * 1e6))
    med = {k: [statistics.median(x[i] for x in v) for i in range(6)] for k, v in got.items()}
    up = med["upstream"]
    for name, url, pid in systems:
        p50, p99, us, io, jit, vm = med[name]
        added = "-" if name == "upstream" else f"**{p50 - up[0]:.2f} / {p99 - up[1]:.2f}**"
        conn = "-" if name == "upstream" else str(opened[name])
        lines.append(f"| {conns} | {name} | {p50:.2f} / {p99:.2f} | {added} | {us:.0f} | "
                     f"{'-' if name == 'upstream' else f'{io:.0f}'} | {jit:.0f} / {vm:.0f} | {conn} |")
lines.append("\nCompiler threads' CPU in each 5 s warm-up window after the first "
             f"{warm} s (ms; until under 100 ms, at most {jit_cap} s): "
             + "; ".join(f"{n}: " + ", ".join(f"{w:.0f}" for w in ws) for n, ws in warm_windows.items()))


# What a system's flags cost in memory (a larger young generation, say), read after the rounds.
lines.append("\nResident memory at the end (MiB): "
             + ", ".join(f"{n} {rss_mib(pid):.0f}" for n, _, pid in systems if n != "upstream"))
lines.append(f"\nLoad average at the end: {' '.join(open('/proc/loadavg').read().split()[:3])}\n")
with open(out, "w") as f:
    f.write("\n".join(lines) + "\n")
print("\n".join(lines))
