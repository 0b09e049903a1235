package io.github.appsetmapper.server;

import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.compile.InputRule;
import io.github.appsetmapper.engine.Engine;
import io.github.appsetmapper.engine.Invocation;
import io.github.appsetmapper.metrics.Metrics;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs each loaded mapping that makes no upstream call once, with a made-up input, through the
 * steps of a getparams (body parse, engine, JSON answer), the answer discarded: the first real
 * getparams after a start or a reload does not pay for class loading and first-use setup (about 270
 * ms). A mapping with upstream calls is not run (nothing may be called on our own), nor one with
 * {@code maxDrop} (it would remember a baseline). A made-up input may be refused: that warms less,
 * and is ignored.
 */
final class Warmup {
  private Warmup() {}

  static void warm(MappingRegistry registry, Engine engine, Metrics metrics) {
    for (String name : registry.names()) {
      metrics.prepareGetparams(name);
      CompiledMapping mapping = registry.find(name).orElse(null);
      if (mapping == null || Engine.makesCalls(mapping) || mapping.maxDrop() != null) {
        continue;
      }
      try {
        byte[] body =
            Json.write(
                    Map.of(
                        "applicationSetName",
                        "warm-up",
                        "input",
                        Map.of("parameters", sampleInput(mapping))))
                .getBytes(StandardCharsets.UTF_8);
        Invocation invocation = GetParamsParser.parse(body);
        Json.answer(engine.execute(mapping, invocation));
      } catch (Exception | StackOverflowError ignored) {
        // A made-up input need not pass; whatever ran is warm.
      }
    }
  }

  /**
   * One request to our own health probe before the server says it is ready: Undertow's parsing and
   * answering paths run once (no log line, no metric). A failure only means less is warm.
   */
  static void probe(int port) {
    try {
      java.net.HttpURLConnection connection =
          (java.net.HttpURLConnection)
              java.net
                  .URI
                  .create("http://127.0.0.1:" + port + "/healthz")
                  .toURL()
                  .openConnection(java.net.Proxy.NO_PROXY);
      connection.setConnectTimeout(1000);
      connection.setReadTimeout(1000);
      try (java.io.InputStream in = connection.getInputStream()) {
        in.readAllBytes();
      }
      connection.disconnect();
    } catch (java.io.IOException | RuntimeException ignored) {
      // Listening on another address than loopback, say: nothing warmed, nothing lost.
    }
  }

  private static Map<String, Object> sampleInput(CompiledMapping mapping) {
    Map<String, Object> input = new LinkedHashMap<>();
    for (InputRule rule : mapping.inputs().values()) {
      input.put(rule.name(), sample(rule));
    }
    return input;
  }

  private static Object sample(InputRule rule) {
    if (rule.defaultValue() != null) {
      return rule.defaultValue();
    }
    if (rule.enumValues() != null && !rule.enumValues().isEmpty()) {
      return rule.enumValues().get(0);
    }
    return switch (rule.type()) {
      case NUMBER -> 1;
      case BOOLEAN -> true;
      case LIST -> List.of();
      case MAP -> Map.of();
      case STRING, ANY -> "warm-up";
    };
  }
}
