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
    // The limit is the YAML response cap (64 MiB), which an answer cannot pass: a small one shows
    // it.
    String yaml = "items: [\"" + "\u00e9".repeat(1200) + "\"]\n";
    JsonRefusal refusal =
        catchThrowableOfType(
            JsonRefusal.class,
            () -> YamlCodec.measure(yaml.getBytes(StandardCharsets.UTF_8), 1000));
    assertThat(refusal.kind()).isEqualTo(JsonRefusal.Kind.LIMIT);
    assertThat(refusal.located()).isEqualTo("is longer than 1000 characters");
    assertThat(YamlCodec.MAX_CODE_POINTS).isEqualTo(YamlCodec.MAX_BYTES);
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

  private static Object read(String yaml) throws JsonRefusal {
    return YamlCodec.measure(yaml.getBytes(StandardCharsets.UTF_8)).document();
  }

  @Test
  void aMergeKeyMergesAsHelmDoesAndExplicitKeysWin() throws JsonRefusal {
    // go-yaml v3: explicit keys win wherever they stand; merged keys stand where '<<' stood.
    Object data = read("base: &b {x: 1, y: 2}\nentries:\n  x: 3\n  <<: *b\n  z: 4\n");
    assertThat(((Map<?, ?>) data).get("entries")).isEqualTo(Map.of("x", 3, "y", 2, "z", 4));
    assertThat(List.copyOf(((Map<?, ?>) ((Map<?, ?>) data).get("entries")).keySet()))
        .isEqualTo(List.of("x", "y", "z"));
    // A list of maps merges in order: the earlier wins.
    Object list = read("a: &a {k: a, p: 1}\nb: &b {k: b, q: 2}\nc:\n  <<: [*a, *b]\n");
    assertThat(((Map<?, ?>) list).get("c")).isEqualTo(Map.of("k", "a", "p", 1, "q", 2));
    // A map given in place merges too; a merge inside an anchored map is kept when it is merged.
    Object inline = read("a: &a {<<: {k: 1}, j: 2}\nb: {<<: *a}\n");
    assertThat(((Map<?, ?>) inline).get("b")).isEqualTo(Map.of("k", 1, "j", 2));
  }

  @Test
  void aMergeOfWhatIsNotAMapIsRefused() {
    for (String yaml :
        List.of(
            "a: &a 1\nb: {<<: *a}\n",
            "a: &a [{k: 1}]\nb: {<<: *a}\n",
            "b: {<<: [{k: 1}, 2]}\n",
            "b: {<<: }\n")) {
      JsonRefusal refusal = refused(yaml);
      assertThat(refusal.kind()).as(yaml).isEqualTo(JsonRefusal.Kind.UNSUPPORTED);
      assertThat(refusal.located())
          .as(yaml)
          .startsWith("has a merge key '<<' whose value is not a map or a list of maps");
    }
  }

  @Test
  void aMergeKeyTwiceIsADuplicateAndAQuotedOneIsAKey() throws JsonRefusal {
    assertThat(refused("a: &a {k: 1}\nb: {<<: *a, <<: *a}\n").kind())
        .isEqualTo(JsonRefusal.Kind.DUPLICATE_KEY);
    assertThat(((Map<?, ?>) read("\"<<\": 1\n")).containsKey("<<")).isTrue();
  }

  @Test
  void aBillionLaughsThroughMergeKeysIsRefused() {
    // Each level merges the one below under 9 keys: a million values once expanded.
    StringBuilder yaml = new StringBuilder("l0: &l0 {a: 1, b: 2, c: 3, d: 4, e: 5, f: 6}\n");
    for (int level = 1; level <= 8; level++) {
      yaml.append("l").append(level).append(": &l").append(level).append(" {");
      for (int k = 0; k < 9; k++) {
        yaml.append(k == 0 ? "" : ", ").append("k").append(k).append(": {<<: *l");
        yaml.append(level - 1).append("}");
      }
      yaml.append("}\n");
    }
    JsonRefusal refusal = refused(yaml.toString());
    assertThat(refusal.kind()).isEqualTo(JsonRefusal.Kind.LIMIT);
    assertThat(refusal.located()).startsWith("repeats more than 100000 values through aliases");
  }
}
