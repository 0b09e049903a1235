package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An expression that cuts a character in two (half of a surrogate pair) fails the getparams, naming
 * the parameter and row: the answer carried '?' in its place on a 200 (an outside tester's find),
 * where the same text from an upstream or a request is refused as it is read.
 */
class HalfCharacterAnswerTest {
  private static final String CUTS =
      """
      name: cuts
      input:
        s: {default: "\\U0001F600 ok"}
      keepTypes: true
      parameters:
        whole: input.s
        half: "input.s.substring(0, 1)"
      """;

  private static final String NESTED =
      """
      name: nested
      input:
        s: {default: "\\U0001F600"}
      keepTypes: true
      parameters:
        list: "{'a', input.s.charAt(1) + ''}"
      """;

  private static final String WHOLE =
      """
      name: whole
      input:
        s: {default: "\\U0001F600 ok"}
      parameters:
        whole: input.s
        first: "input.s.substring(0, 2)"
      """;

  @Test
  void aParameterCutInHalfIsAnErrorNamingIt(@TempDir Path dir) {
    try (PluginServer plugin =
        PluginServer.withYaml(dir, Map.of(), Map.of(), CUTS, NESTED, WHOLE)) {
      Answer cut = plugin.getparams("cuts", "{\"input\":{}}");
      assertThat(cut.status()).isEqualTo(500);
      assertThat(cut.body())
          .contains("parameter 'half' of row")
          .contains("half of a surrogate pair (\\\\ud83d alone)")
          .doesNotContain("?");
      Answer nested = plugin.getparams("nested", "{\"input\":{}}");
      assertThat(nested.status()).isEqualTo(500);
      assertThat(nested.body()).contains("parameter 'list' of row").contains("\\\\ude00 alone");
      // A whole emoji is text like any other.
      Answer whole = plugin.getparams("whole", "{\"input\":{}}");
      assertThat(whole.status()).isEqualTo(200);
      assertThat(whole.body())
          .contains("\"whole\":\"\ud83d\ude00 ok\"")
          .contains("\"first\":\"\ud83d\ude00\"");
    }
  }
}
