"""Scenario 1 of bench/run: a static answer, side by side in one run.

Every system is already running (pinned to CPU 0) and answers the same bytes. wrk (16 connections,
POST getparams with a bearer token, pinned to CPU 1) drives one system at a time:
  1. warm-up: 5 s windows until two windows in a row are within 3% of each other (the JIT has
     settled), at most BENCH_WARM_CAP seconds (default 120); the windows are reported;
  2. ROUNDS rounds; each round measures every system once, the order rotating each round so that
     a machine getting busier or quieter favours none; the server's CPU per request is the sum over
     its threads of /proc/PID/task/TID/schedstat's first field (nanoseconds on a CPU, exact) around
     each measurement. /proc/PID/stat's user + system time is printed beside it: it is sampled at
     each clock tick and charged to whichever thread the tick finds, which is wrong where the
     server is idle most of the time (see bench/latency). Its threads' context switches per
     request (/proc/PID/task/TID/status) count the wake-ups a request causes.
Prints a markdown section with medians and the per-round ratios against the ceiling.
Usage: static.py OUT ROUNDS SECONDS TOKEN BODY name=url=pid ...
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile

out, rounds, seconds, token, body = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
systems = [a.split("=", 2) for a in sys.argv[6:]]
warm_cap = int(os.environ.get("BENCH_WARM_CAP", "120"))
# The 3% rule alone stopped a jar at 10 s while its throughput was still tripling (the JIT had not
# compiled the request path yet): at least this long before two windows may end the warm-up.
warm_min = int(os.environ.get("BENCH_WARM_MIN", "30"))
tick = os.sysconf("SC_CLK_TCK")

script = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
script.write('wrk.method = "POST"\n' + "wrk.body = [[" + body + "]]\n")
script.write('wrk.headers["Content-Type"] = "application/json"\n')
script.write(f'wrk.headers["Authorization"] = "Bearer {token}"\n')
script.close()


def ticks(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / tick  # utime + stime, seconds


def on_cpu(pid):
    """Nanoseconds each thread has spent on a CPU (schedstat's first field), by thread id."""
    spent = {}
    for t in os.listdir(f"/proc/{pid}/task"):
        try:
            spent[t] = int(open(f"/proc/{pid}/task/{t}/schedstat").read().split()[0])
        except (OSError, ValueError):
            pass  # the thread ended
    return spent


def switches(pid):
    """Context switches of every thread (voluntary + not), summed: each is a wake-up or a preemption
    on the server's one CPU, a count that hardly depends on the machine's load."""
    total = 0
    for t in os.listdir(f"/proc/{pid}/task"):
        try:
            for line in open(f"/proc/{pid}/task/{t}/status"):
                if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                    total += int(line.split()[1])
        except (OSError, ValueError):
            pass  # the thread ended
    return total


def cpu_between(before, after):
    """Seconds on a CPU between two on_cpu readings (a thread that ended meanwhile is not counted)."""
    return sum(ns - before.get(t, 0) for t, ns in after.items()) / 1e9


def wrk(url, secs):
    t = subprocess.run(
        ["taskset", "-c", "1", "wrk", "-t1", "-c16", f"-d{secs}s", "--latency", "-s", script.name, url],
        capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", t).group(1))
    total = int(re.search(r"(\d+) requests in", t).group(1))
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", t)
    errors = re.search(r"Socket errors: (.*)", t)

    def pct(p):
        m = re.search(rf"\s{p}%\s+([\d.]+)(us|ms|s)\b", t)
        v = float(m.group(1))
        return v / 1000 if m.group(2) == "us" else v * 1000 if m.group(2) == "s" else v

    # wrk's timeouts are a slow answer (the single-threaded plugin under 16 connections), counted
    # in its latency; anything else is a wrong answer or a broken connection.
    broken = errors and re.search(r"connect [1-9]|read [1-9]|write [1-9]", errors.group(1))
    if bad or broken:
        sys.exit(f"bench: {url}: {bad.group(0) if bad else ''} {errors.group(0) if errors else ''}")
    return rps, total, pct(50), pct(99)


def measure(name, url, pid, secs):
    before, ticks_before, switched = on_cpu(pid), ticks(pid), switches(pid)
    rps, total, p50, p99 = wrk(url, secs)
    return (rps, cpu_between(before, on_cpu(pid)) / total * 1e6, p50, p99,
            (ticks(pid) - ticks_before) / total * 1e6, (switches(pid) - switched) / total)


lines = []
warm = {}
for name, url, pid in systems:
    windows, spent = [], 0
    while spent < warm_cap:
        windows.append(wrk(url, 5)[0])
        spent += 5
        if (spent >= warm_min and len(windows) >= 2
                and abs(windows[-1] - windows[-2]) <= 0.03 * windows[-2]):
            break
    warm[name] = windows

results = {name: [] for name, _, _ in systems}
for r in range(rounds):
    order = systems[r % len(systems):] + systems[:r % len(systems)]
    for name, url, pid in order:
        results[name].append(measure(name, url, pid, seconds))

ceiling = systems[0][0]
med = {n: [statistics.median(x[i] for x in v) for i in range(6)] for n, v in results.items()}
lines.append("## 1. Static answer (wrk, 16 connections, same answer bytes)\n")
lines.append("| system | requests/s | server CPU per request (us) | p50 ms | p99 ms | context switches per request |")
lines.append("| --- | --- | --- | --- | --- | --- |")
for name, _, _ in systems:
    rps, us, p50, p99, _, cs = med[name]
    lines.append(f"| {name} | {rps:.0f} | {us:.1f} | {p50:.2f} | {p99:.2f} | {cs:.3f} |")
lines.append("")
for name, _, _ in systems[1:]:
    tp = [a[0] / b[0] for a, b in zip(results[name], results[ceiling])]
    cp = [a[1] / b[1] for a, b in zip(results[name], results[ceiling])]
    lines.append(
        f"- {name} / {ceiling}: throughput **{statistics.median(tp):.2f}x** (rounds: "
        + ", ".join(f"{x:.2f}" for x in tp) + f"), CPU per request **{statistics.median(cp):.2f}x** (rounds: "
        + ", ".join(f"{x:.2f}" for x in cp) + ")")
lines.append("- CPU per request from /proc/PID/stat's ticks instead (us, medians): "
             + ", ".join(f"{n} {med[n][4]:.1f}" for n, _, _ in systems))
lines.append(f"- Warm-up windows (req/s, 5 s each, at least {warm_min} s, until two in a row within 3%, cap "
             f"{warm_cap} s): " + "; ".join(f"{n}: " + ", ".join(f"{w:.0f}" for w in ws) for n, ws in warm.items()))
lines.append(f"- Load average at the end: {open('/proc/loadavg').read().split()[:3]}\n")
with open(out, "a") as f:
    f.write("\n".join(lines) + "\n")
print("\n".join(lines))
