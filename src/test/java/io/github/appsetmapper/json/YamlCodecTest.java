package io.github.appsetmapper.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The limits of {@link YamlCodec} that an answer within the response cap cannot reach. */
class YamlCodecTest {
  private static JsonRefusal refused(String yaml) {
    return catchThrowableOfType(
        JsonRefusal.class, () -> YamlCodec.measure(yaml.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void aDocumentLongerThanTheLimitIsRefused() {
    // The limit is the response cap (10 MiB), which an answer cannot pass: a small one shows it.
    String yaml = "items: [\"" + "\u00e9".repeat(1200) + "\"]\n";
    JsonRefusal refusal =
        catchThrowableOfType(
            JsonRefusal.class,
            () -> YamlCodec.measure(yaml.getBytes(StandardCharsets.UTF_8), 1000));
    assertThat(refusal.kind()).isEqualTo(JsonRefusal.Kind.LIMIT);
    assertThat(refusal.located()).isEqualTo("is longer than 1000 characters");
    assertThat(YamlCodec.MAX_CODE_POINTS).isEqualTo(10 * 1024 * 1024);
  }

  @Test
  void anIndexPastSnakeYamlsDefaultLimitIsRead() throws JsonRefusal {
    StringBuilder yaml = new StringBuilder("apiVersion: v1\nentries:\n  big:\n");
    int versions = 0;
    // SnakeYAML's default limit is 3 MB (3 * 1024 * 1024 code points).
    while (yaml.length() < 3 * 1024 * 1024 + 4096) {
      yaml.append("  - name: big\n    version: 1.0.")
          .append(versions++)
          .append("\n    digest: ")
          .append("ab".repeat(32))
          .append("\n    urls: [https://charts.example.com/big-1.0.")
          .append(versions)
          .append(".tgz]\n");
    }
    Object data = YamlCodec.measure(yaml.toString().getBytes(StandardCharsets.UTF_8)).document();
    assertThat(((List<?>) ((Map<?, ?>) ((Map<?, ?>) data).get("entries")).get("big")))
        .hasSize(versions);
  }

  @Test
  void anAliasInsideItselfIsRefused() {
    assertThat(refused("a: &a [*a]\n").located()).startsWith("is nested deeper than 500 levels");
  }

  @Test
  void aMergeKeyIsRefusedNotReadAsAKeyNamedLessLess() throws JsonRefusal {
    // Helm (Go yaml) merges base into entries (x: 3, y: 2); a plain key '<<' would make a phantom
    // row and lose y.
    JsonRefusal refusal = refused("base: &b {x: 1, y: 2}\nentries:\n  <<: *b\n  x: 3\n");
    assertThat(refusal.kind()).isEqualTo(JsonRefusal.Kind.UNSUPPORTED);
    assertThat(refusal.located()).startsWith("has a merge key '<<', which is not supported");
    // Quoted, it is an ordinary key.
    Object data = YamlCodec.measure("\"<<\": 1\n".getBytes(StandardCharsets.UTF_8)).document();
    assertThat(((Map<?, ?>) data).containsKey("<<")).isTrue();
  }
}
