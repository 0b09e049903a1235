"""Summarises `jfr print --events jdk.ExecutionSample` output: each sample goes to the category of
the first frame, from the top of its stack, that matches one (so a String.hashCode called by the
metrics counts as metrics), and the methods most often on top are listed on their own."""
import collections
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
    ("worker hand-off", ["java.util.concurrent.locks", "org.jboss.threads", "java.util.concurrent.ThreadPoolExecutor"]),
    ("socket I/O (XNIO, NIO)", ["org.xnio", "sun.nio.ch"]),
]

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
    label = "other (JDK, JIT-compiled stubs, GC)"
    for frame in frames:
        hit = next((name for name, keys in CATEGORIES if any(k in frame for k in keys)), None)
        if hit:
            label = hit
            break
    by_category[label] += 1

print(f"{total} samples. By the first frame that matches a category:\n")
print("| where | share |\n| --- | --- |")
for label, n in by_category.most_common():
    print(f"| {label} | {n / total:.1%} |")
print("\nMethods most often on top of the stack:\n")
print("| method | share |\n| --- | --- |")
for frame, n in top.most_common(12):
    print(f"| `{frame}` | {n / total:.1%} |")
