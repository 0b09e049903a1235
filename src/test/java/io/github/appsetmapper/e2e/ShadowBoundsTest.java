package io.github.appsetmapper.e2e;

import static io.github.appsetmapper.testing.ShadowServer.until;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.ShadowServer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shadow differences are bounded in bytes, not only in count: a live mapping with a 400 KB field, a
 * candidate that changes it, 30 getparams with distinct inputs; the shadow report holds each value
 * shortened with a marker, and the live answers are whole.
 */
class ShadowBoundsTest {
  private static final int BIG = 400_000;

  private static final String LIVE =
      """
      name: big
      key: id
      vars: {up: {default: "http://unset.invalid"}}
      input:
        n: {pattern: "[0-9]+"}
      list:
        request: {url: "#{vars.up}/big"}
        items: "$[*]"
      parameters:
        id: item.id
        blob: item.blob
      """;

  private static final String CANDIDATE =
      LIVE.replace("blob: item.blob", "blob: item.blob.toUpperCase()");

  @SuppressWarnings("unchecked")
  @Test
  void largeChangedValuesAreKeptShortenedAndTheLiveAnswersWhole(@TempDir Path dir)
      throws Exception {
    String blob = "a".repeat(BIG);
    try (StubUpstream stub = new StubUpstream();
        ShadowServer server =
            ShadowServer.start(dir, Map.of("up", stub.url()), List.of(LIVE), List.of(CANDIDATE))) {
      stub.on("GET /big", Reply.json(200, "[{\"id\":1,\"blob\":\"" + blob + "\"}]"));
      for (int n = 0; n < 30; n++) {
        Answer live = server.getparams("big", "{\"input\":{\"parameters\":{\"n\":\"" + n + "\"}}}");
        assertThat(live.status()).isEqualTo(200);
        assertThat(live.body()).hasSizeGreaterThan(BIG);
        int runs = n + 1;
        // One run at a time, so that none is skipped as busy.
        until("candidate run " + runs, () -> ran(server) >= runs);
      }

      Answer report = server.send("GET", "/mappings/big/shadow", null, PluginServer.TOKEN);

      assertThat(report.status()).isEqualTo(200);
      assertThat(different(server)).as(report.body().substring(0, 3000)).isEqualTo(30);
      assertThat(report.body().length()).isLessThan(1_000_000);
      Map<String, Object> shadow = (Map<String, Object>) JsonCodec.read(report.body());
      List<Map<String, Object>> differences = (List<Map<String, Object>>) shadow.get("differences");
      assertThat(differences).hasSize(30);
      Map<String, Object> change =
          ((List<Map<String, Object>>)
                  ((List<Map<String, Object>>) differences.get(0).get("changedRows"))
                      .get(0)
                      .get("parameters"))
              .get(0);
      assertThat((String) change.get("after"))
          .startsWith("AAAA")
          .endsWith("... [shortened: 400,000 characters]");
    }
  }

  @SuppressWarnings("unchecked")
  private static long ran(ShadowServer server) {
    Answer answer = server.send("GET", "/mappings/big/shadow", null, PluginServer.TOKEN);
    try {
      Map<String, Object> runs =
          (Map<String, Object>) ((Map<String, Object>) JsonCodec.read(answer.body())).get("runs");
      return runs.values().stream().mapToLong(n -> ((Number) n).longValue()).sum();
    } catch (Exception e) {
      throw new AssertionError(answer.body(), e);
    }
  }

  @SuppressWarnings("unchecked")
  private static long different(ShadowServer server) {
    Answer answer = server.send("GET", "/mappings/big/shadow", null, PluginServer.TOKEN);
    try {
      Map<String, Object> runs =
          (Map<String, Object>) ((Map<String, Object>) JsonCodec.read(answer.body())).get("runs");
      Object n = runs.get("different");
      return n == null ? 0 : ((Number) n).longValue();
    } catch (Exception e) {
      throw new AssertionError(answer.body(), e);
    }
  }
}
