package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A mapping without upstream calls and a small body is answered on the IO thread, within a slice of
 * evaluation steps: one whose expressions take more steps than the slice (or a costly one) is
 * abandoned there and answered from the start on a worker, counted once in {@code
 * appset_mapper_getparams_moved_total}. Steps, not time, decide: the same request moves or not on
 * any machine.
 */
class InlineSliceTest {
  /** The bench's static scenario, and a few functions over a short list. */
  private static final String LIGHT =
      "name: light\n"
          + "input:\n  key1: {required: true}\n  l: {type: list}\n"
          + "parameters:\n"
          + "  key1: input.key1\n"
          + "  key2: \"'val2'\"\n"
          + "  slug: \"#slug(input.key1 + '-' + 'Feature/Branch_1', 50)\"\n"
          + "  doubled: \"#json(input.l.![#this * 2])\"\n";

  /**
   * Six projections over 2,000 numbers, each its own evaluation (SpEL allows one 10,000
   * operations): tens of thousands of steps in all, from a body of 4 KB.
   */
  private static final String HEAVY =
      "name: heavy\n"
          + "input:\n  l: {type: list, required: true}\n"
          + "let:\n"
          + "  a: \"input.l.![#this + 1]\"\n"
          + "  b: \"input.l.![#this + 2]\"\n"
          + "  c: \"input.l.![#this + 3]\"\n"
          + "  d: \"input.l.![#this + 4]\"\n"
          + "  e: \"input.l.![#this + 5]\"\n"
          + "  f: \"input.l.![#this + 6]\"\n"
          + "parameters:\n"
          + "  total: \"a.size() + b.size() + c.size() + d.size() + e.size() + f.size()\"\n"
          + "  last: \"f[1999]\"\n";

  private static final String HEAVY_BODY =
      "{\"input\":{\"parameters\":{\"l\":[" + "1,".repeat(1999) + "1]}}}";

  @Test
  void aHeavyStaticAnswerMovesToAWorkerOnceALightOneStays(@TempDir Path dir) {
    try (PluginServer plugin = PluginServer.withYaml(dir, Map.of(), Map.of(), LIGHT, HEAVY)) {
      Answer light =
          plugin.getparams(
              "light", "{\"input\":{\"parameters\":{\"key1\":\"a\",\"l\":[1,2,3,4,5,6,7,8]}}}");
      assertThat(light.status()).as(light.body()).isEqualTo(200);
      assertThat(light.body())
          .isEqualTo(
              "{\"output\":{\"parameters\":[{\"key1\":\"a\",\"key2\":\"val2\","
                  + "\"slug\":\"a-feature-branch-1\",\"doubled\":\"[2,4,6,8,10,12,14,16]\"}]}}");
      Answer heavy = plugin.getparams("heavy", HEAVY_BODY);
      assertThat(heavy.status()).as(heavy.body()).isEqualTo(200);
      assertThat(heavy.body())
          .isEqualTo("{\"output\":{\"parameters\":[{\"total\":\"12000\",\"last\":\"7\"}]}}");
      String metrics = plugin.send("GET", "/metrics", null, null, null).body();
      assertThat(value(metrics, "appset_mapper_getparams_moved_total", "light")).isEqualTo(0);
      assertThat(value(metrics, "appset_mapper_getparams_moved_total", "heavy")).isEqualTo(1);
      // Answered, logged and counted once: by the worker's run alone.
      assertThat(requests(metrics, "heavy")).isEqualTo(1);
      assertThat(requests(metrics, "light")).isEqualTo(1);
    }
  }

  /**
   * Divisions of 10,000-digit numbers (DeadlineInsideEvaluationTest): the first costly step ends
   * the slice, and on the worker the run still ends with the 504 at its deadline. No timing is
   * asserted; the timeout only fails when the deadline is not checked (minutes of work).
   */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aMovedAnswerStillEndsAtItsDeadline(@TempDir Path dir) {
    String digits = "1.1" + "3".repeat(988);
    String body =
        "{\"input\":{\"parameters\":{\"n\":\"" + digits + "\",\"l\":[" + "0,".repeat(799) + "0]}}}";
    String selection = "bigs.?[#this / #this < 0]";
    String mapping =
        "name: divisions\ndeadline: 1s\n"
            + "input:\n  n: {type: string, required: true}\n  l: {type: list, required: true}\n"
            + "let:\n  big: \"#toNumber(input.n) ^ 10\"\n"
            + "  bigs: \"input.l.![#root.big]\"\n"
            + "parameters:\n  value: \"{"
            + (selection + ",").repeat(5)
            + selection
            + "}\"\n";
    try (PluginServer plugin = PluginServer.withYaml(dir, Map.of(), Map.of(), mapping)) {
      Answer answer = plugin.getparams("divisions", body);
      assertThat(answer.status()).as(answer.body()).isEqualTo(504);
      assertThat(answer.body())
          .startsWith("{\"error\":\"mapping 'divisions': deadline 1s exceeded");
      assertThat(plugin.send("GET", "/healthz", null, null, null).status()).isEqualTo(200);
      String metrics = plugin.send("GET", "/metrics", null, null, null).body();
      assertThat(value(metrics, "appset_mapper_getparams_moved_total", "divisions")).isEqualTo(1);
    }
  }

  private static double requests(String metrics, String mapping) {
    Matcher m =
        Pattern.compile(
                "(?m)^appset_mapper_getparams_requests_total\\{mapping=\""
                    + mapping
                    + "\",status=\"200\"} (\\S+)$")
            .matcher(metrics);
    assertThat(m.find()).as(metrics).isTrue();
    return Double.parseDouble(m.group(1));
  }

  private static double value(String metrics, String name, String mapping) {
    Matcher m =
        Pattern.compile("(?m)^" + name + "\\{mapping=\"" + mapping + "\"} (\\S+)$")
            .matcher(metrics);
    assertThat(m.find()).as(name + " of " + mapping + " in\n" + metrics).isTrue();
    return Double.parseDouble(m.group(1));
  }
}
