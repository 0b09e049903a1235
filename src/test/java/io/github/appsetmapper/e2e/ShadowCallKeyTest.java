package io.github.appsetmapper.e2e;

import static io.github.appsetmapper.testing.ShadowServer.until;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.ShadowServer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A candidate shares a live call's answer only when it is the same call by the one rule every
 * shared answer follows (the cache's, Redis's, diff's): the response cap is part of it. A candidate
 * reading the answer as YAML (a 64 MiB cap) took the answer the live JSON call read under 10 MiB: a
 * live call refused as too large made the candidate fail where it would not.
 */
class ShadowCallKeyTest {
  @TempDir Path dir;

  private static final String LIVE =
      """
      name: pulls
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/pulls"}
        items: "$[*]"
      parameters: {number: item.number}
      """;

  private static final String AS_YAML =
      LIVE.replace(
              "request: {url: \"#{vars.up}/pulls\"}",
              "request: {url: \"#{vars.up}/pulls\", format: yaml}")
          .replace("parameters:", "filter: \"item.number > 1\"\nparameters:");

  @SuppressWarnings("unchecked")
  private static long runs(ShadowServer server, String result) {
    PluginServer.Answer answer =
        server.send("GET", "/mappings/pulls/shadow", null, PluginServer.TOKEN);
    try {
      Map<String, Object> report = (Map<String, Object>) JsonCodec.read(answer.body());
      Object n = ((Map<String, Object>) report.get("runs")).get(result);
      return n == null ? 0 : ((Number) n).longValue();
    } catch (Exception e) {
      throw new AssertionError(answer.body(), e);
    }
  }

  @Test
  void aCallUnderAnotherResponseCapIsNotTheLiveCall() {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /pulls", Reply.json(200, "[{\"number\":1},{\"number\":2}]"));
      try (ShadowServer server =
          ShadowServer.start(dir, Map.of("up", stub.url()), List.of(LIVE), List.of(AS_YAML))) {
        assertThat(server.getparams("pulls", "{}").status()).isEqualTo(200);
        until("the candidate ran", () -> runs(server, "different") + runs(server, "failed") == 1);
        assertThat(runs(server, "different")).isEqualTo(1);
        assertThat(server.shadow().sharedCalls()).isZero();
        assertThat(server.shadow().madeCalls()).isEqualTo(1);
        assertThat(stub.calls()).isEqualTo(2);
      }
    }
  }
}
