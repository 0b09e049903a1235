package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A message quoting a caller's text cuts it short between characters, never between the two halves
 * of one (the one cut, Printable.cut): an outsider saw an error end in {@code \ud83d...}, half an
 * emoji the server made itself.
 */
class CutAtCharactersTest {
  private static final String MAPPING =
      """
      name: m
      input:
        n: {required: false}
        d: {required: false}
        v: {required: false}
      parameters:
        number: "input.n == null ? '' : #toNumber(input.n)"
        date: "input.d == null ? '' : #daysSince(input.d)"
        range: "input.v == null ? '' : #semverMatches('1.0.0', input.v)"
      """;

  private static final String EMOJI = "\uD83D\uDE00";

  @TempDir Path dir;

  @Test
  void aQuotedInputIsCutBetweenCharacters() throws Exception {
    // One letter first, so that every cut at an even length falls inside an emoji.
    String text = "a" + EMOJI.repeat(60);
    try (PluginServer server = PluginServer.withYaml(dir, Map.of(), Map.of(), MAPPING)) {
      for (String input : new String[] {"n", "d", "v"}) {
        Answer answer =
            server.getparams(
                "m", "{\"input\":{\"parameters\":{\"" + input + "\":\"" + text + "\"}}}");
        assertThat(answer.status()).as(input + ": " + answer.body()).isEqualTo(500);
        assertThat(answer.body())
            .as(input)
            .contains("a" + EMOJI.repeat(3))
            .contains("...")
            .doesNotContain("\\ud83d")
            .doesNotContain("\\ude00");
      }
    }
  }
}
