package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The deadline is checked before every costly operation inside one evaluation, not only between
 * rows or every thousand cheap steps: an expression whose work would run for minutes ends with the
 * 504 once the deadline has passed. No timing is asserted; the timeout only fails when the check is
 * missing (the answer then takes minutes, and the client gives up after 30 s).
 */
class DeadlineInsideEvaluationTest {
  /** A decimal of 990 digits: its tenth power has 9,900, within the bound of 10,000. */
  private static final String DIGITS = "1.1" + "3".repeat(988);

  private static final String BODY =
      "{\"input\":{\"parameters\":{\"n\":\"" + DIGITS + "\",\"l\":[" + "0,".repeat(799) + "0]}}}";

  private static String mapping(String name, String parameter) {
    return "name: "
        + name
        + "\ndeadline: 1s\n"
        + "input:\n  n: {type: string, required: true}\n  l: {type: list, required: true}\n"
        + "let:\n  big: \"#toNumber(input.n) ^ 10\"\n"
        + "  bigs: \"input.l.![#root.big]\"\n"
        + "parameters:\n  value: \""
        + parameter
        + "\"\n";
  }

  /**
   * Each {@code #this / #this} divides two numbers of 10,000 digits exactly (tens of milliseconds),
   * two of SpEL's operations each: six selections over 800 of them are 4,800 divisions, minutes of
   * work inside one evaluation with no method call, no string built and nothing counted between
   * them. Before, the deadline was checked only at the end; the IO thread (and /healthz on it)
   * waited for all of it.
   */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aLongEvaluationEndsWithTheDeadline(@TempDir Path dir) {
    String selection = "bigs.?[#this / #this < 0]";
    String divisions = "{" + (selection + ",").repeat(5) + selection + "}";
    try (PluginServer plugin =
        PluginServer.withYaml(dir, Map.of(), Map.of(), mapping("divisions", divisions))) {
      Answer answer = plugin.getparams("divisions", BODY);
      assertThat(answer.status()).as(answer.body()).isEqualTo(504);
      assertThat(answer.body())
          .startsWith("{\"error\":\"mapping 'divisions': deadline 1s exceeded");
      assertThat(plugin.send("GET", "/healthz", null, null, null).status()).isEqualTo(200);
    }
  }
}
