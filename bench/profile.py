"""Summarises `jfr print --events jdk.ExecutionSample` output: each sample goes to the category of
the first frame, from the top of its stack, that matches one (so a String.hashCode called by the
metrics counts as metrics), and the methods most often on top are listed on their own.

With the allocation files too (profile.py SAMPLES ALLOC THREADS REQUESTS): the bytes allocated per
request (every thread's allocation counter at the recording's start and end, JFR's own threads and
the attach listener left out) and the allocation samples, weighted by their bytes, by category and
by the first frame outside the JDK's collections and strings."""
import collections
import json
import re
import sys

CATEGORIES = [
    ("the log line", ["ch.qos.logback", "org.slf4j", "GetParamsHandler.finish", "appsetmapper.logging"]),
    ("metrics", ["io.micrometer", "appsetmapper.metrics"]),
    ("SpEL parameters", ["org.springframework.expression", "engine.Parameters", "appsetmapper.expr"]),
    ("input validation", ["engine.InputValidator"]),
    ("parsing the body (JSON)", ["GetParamsParser", "JsonCodec.read", "JsonCodec.parse"]),
    ("the JSON answer", ["server.Json.", "JsonCodec.write", "com.fasterxml.jackson.databind.ObjectMapper.write"]),
    ("token check", ["server.BearerAuth", "server.Tokens"]),
    ("engine, other", ["appsetmapper.engine"]),
    ("reading the body", ["server.BodyReader", "io.undertow.io.AsyncReceiverImpl"]),
    ("sending the answer", ["io.undertow.io.AsyncSenderImpl", "server.Exchanges.send", "HttpServerExchange.endExchange",
                            "HttpResponseConduit", "io.undertow.conduits", "HttpServerExchange$WriteDispatchChannel"]),
    ("routing and handlers", ["io.undertow.server.RoutingHandler", "io.undertow.server.handlers", "io.undertow.util.PathTemplate",
                              "appsetmapper.server"]),
    ("Undertow request parsing", ["io.undertow.server.protocol.http.HttpRequestParser", "io.undertow.server.protocol.http.HttpReadListener",
                                  "io.undertow.server.Connectors", "io.undertow"]),
    # A lock's frames go to whoever takes it (the log line's queue, a socket write), not here.
    ("worker hand-off", ["org.jboss.threads", "java.util.concurrent.ThreadPoolExecutor", "HttpServerExchange.dispatch"]),
    ("socket I/O (XNIO, NIO)", ["org.xnio", "sun.nio.ch"]),
]



def category(frames):
    for frame in frames:
        hit = next((name for name, keys in CATEGORIES if any(k in frame for k in keys)), None)
        if hit:
            return hit
    return "other (JDK, JIT-compiled stubs, GC)"


samples = open(sys.argv[1]).read().split("jdk.ExecutionSample")
by_category = collections.Counter()
top = collections.Counter()
total = 0
for sample in samples:
    frames = re.findall(r"^\s{4}([\w$.<>/]+)\(", sample, re.M)
    if not frames:
        continue
    total += 1
    top[frames[0]] += 1
    by_category[category(frames)] += 1

print(f"{total} samples. By the first frame that matches a category:\n")
print("| where | share |\n| --- | --- |")
for label, n in by_category.most_common():
    print(f"| {label} | {n / total:.1%} |")
print("\nMethods most often on top of the stack:\n")
print("| method | share |\n| --- | --- |")
for frame, n in top.most_common(12):
    print(f"| `{frame}` | {n / total:.1%} |")

if len(sys.argv) > 4:
    requests = int(sys.argv[4])
    counters = collections.defaultdict(list)
    for event in json.load(open(sys.argv[3]))["recording"]["events"]:
        thread = event["values"]["thread"]["javaName"] or ""
        if not thread.startswith(("JFR", "Attach Listener")):
            counters[thread].append(event["values"]["allocated"])
    per_thread = {t: max(v) - min(v) for t, v in counters.items()}
    print(f"\nAllocated per request: **{sum(per_thread.values()) / requests:,.0f} bytes** "
          f"({requests} requests; by thread: "
          + ", ".join(f"{t} {b / requests:,.0f}" for t, b in sorted(per_thread.items(), key=lambda x: -x[1])[:4])
          + ").")
    weights, sites, seen = collections.Counter(), collections.Counter(), set()
    for sample in open(sys.argv[2]).read().split("jdk.ObjectAllocationSample")[1:]:
        frames = re.findall(r"^\s{4}([\w$.<>/]+)\(", sample, re.M)
        weight = re.search(r"weight = ([\d.]+) (bytes|kB|MB|GB)", sample)
        thread = re.search(r'eventThread = "([^"]*)"', sample)
        if not frames or not weight or not thread:
            continue
        if thread.group(1) not in seen:  # a thread's first sample weighs all it allocated before
            seen.add(thread.group(1))
            continue
        w = float(weight.group(1)) * {"bytes": 1, "kB": 1024, "MB": 1024 ** 2, "GB": 1024 ** 3}[weight.group(2)]
        weights[category(frames)] += w
        site = next((f for f in frames if not f.startswith(("java.util.", "java.lang.", "jdk.internal."))), frames[0])
        sites[site] += w
    all_bytes = sum(weights.values()) or 1
    print("\nAllocation samples by category (weighted by bytes):\n")
    print("| where | share |\n| --- | --- |")
    for label, w in weights.most_common():
        print(f"| {label} | {w / all_bytes:.1%} |")
    print("\nAllocating sites (first frame outside java.util, java.lang, jdk.internal):\n")
    print("| site | share |\n| --- | --- |")
    for site, w in sites.most_common(15):
        print(f"| `{site}` | {w / all_bytes:.1%} |")
