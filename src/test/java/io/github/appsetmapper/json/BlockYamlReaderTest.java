package io.github.appsetmapper.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.HelmIndex;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * BlockYamlReader against SnakeYAML alone: for generated Helm-shaped documents and random mutations
 * of them, {@link YamlCodec#measure} answers exactly as {@link YamlCodec#measureWithSnakeYaml} (the
 * same data, Java types and key order, the same heap estimate, or the same refusal), and the fast
 * path is really taken for the documents Go's yaml writes.
 */
class BlockYamlReaderTest {
  private static final int LIMIT = YamlCodec.MAX_CODE_POINTS;

  /** The answer, written so that types, key order and the heap estimate all count. */
  private static String outcome(Measured reader, byte[] yaml) {
    try {
      JsonCodec.Measured measured = reader.measure(yaml);
      return describe(measured.document()) + " bytes=" + measured.bytes();
    } catch (JsonRefusal e) {
      return "refused " + e.kind() + ": " + e.located();
    } catch (RuntimeException e) {
      return "crashed " + e; // the same crash on both sides still fails below: never expected
    }
  }

  private interface Measured {
    JsonCodec.Measured measure(byte[] yaml) throws JsonRefusal;
  }

  private static String describe(Object value) {
    if (value instanceof Map<?, ?> map) {
      StringBuilder out = new StringBuilder("{");
      map.forEach((k, v) -> out.append(describe(k)).append('=').append(describe(v)).append(','));
      return out.append('}').toString();
    }
    if (value instanceof List<?> list) {
      StringBuilder out = new StringBuilder("[");
      list.forEach(v -> out.append(describe(v)).append(','));
      return out.append(']').toString();
    }
    return value == null ? "null" : value.getClass().getSimpleName() + ":" + value;
  }

  private static void assertSame(byte[] yaml) {
    String expected = outcome(bytes -> YamlCodec.measureWithSnakeYaml(bytes, LIMIT), yaml);
    String actual = outcome(YamlCodec::measure, yaml);
    assertThat(actual).as(new String(yaml, StandardCharsets.UTF_8)).isEqualTo(expected);
    assertThat(actual).doesNotStartWith("crashed");
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void theHelmIndexIsReadOnTheFastPathWithTheSameAnswer() throws JsonRefusal {
    byte[] index = HelmIndex.yaml(2_000_000);
    assertThat(new String(index, StandardCharsets.UTF_8))
        .contains("acyclic\n      graphs.", "description: 'chart-3 ", "      images: |\n");
    JsonCodec.Measured fast = BlockYamlReader.read(index);
    assertThat(fast).isNotNull();
    JsonCodec.Measured slow = YamlCodec.measureWithSnakeYaml(index, LIMIT);
    assertThat(fast.bytes()).isEqualTo(slow.bytes());
    assertThat(describe(fast.document())).isEqualTo(describe(slow.document()));
  }

  @Test
  void generatedDocumentsAreReadOnTheFastPathWithTheSameAnswer() {
    for (int seed = 0; seed < 400; seed++) {
      byte[] yaml = utf8(new Generator(new Random(seed)).document());
      assertThat(BlockYamlReader.read(yaml))
          .as("taken for seed %d:%n%s", seed, new String(yaml, StandardCharsets.UTF_8))
          .isNotNull();
      assertSame(yaml);
    }
  }

  @Test
  void mutatedDocumentsGetSnakeYamlsAnswerOrRefusal() {
    int fast = 0;
    int slow = 0;
    for (int seed = 0; seed < 3000; seed++) {
      Random random = new Random(seed);
      byte[] yaml = mutate(utf8(new Generator(random).document()), random);
      if (BlockYamlReader.read(yaml) != null) {
        fast++;
      } else {
        slow++;
      }
      assertSame(yaml);
    }
    // Both sides are exercised: mutations the fast path reads, and ones it leaves to SnakeYAML.
    assertThat(fast).isGreaterThan(300);
    assertThat(slow).isGreaterThan(300);
  }

  @Test
  void randomLinesOfYamlPiecesGetSnakeYamlsAnswer() {
    // Not shaped by a generator's idea of YAML: indentations and pieces at random, so that what
    // the fast path accepts is compared with SnakeYAML where the two could read it differently.
    String[] prefixes = {"", "", "", "- ", "- ", "- - ", "-", "# c"};
    String[] keys = {"", "k: ", "k:", "j: ", "k2:", "x y: ", "<<: ", "? ", "\"k\": "};
    String[] values = {
      "",
      "",
      "",
      "v",
      "a b",
      "1.10",
      "010",
      "~",
      "\"q\"",
      "'s'",
      "''",
      "[]",
      "{}",
      "#c",
      " #c",
      "x:y",
      "\u00e9",
      "-1",
      "---",
      "...",
      "&a x",
      "*a",
      "|",
      ":",
      "v ",
      "a: b",
      "\"a\\tb\""
    };
    int fast = 0;
    for (int seed = 0; seed < 20_000; seed++) {
      Random random = new Random(seed);
      StringBuilder yaml = new StringBuilder();
      int lines = 1 + random.nextInt(6);
      for (int line = 0; line < lines; line++) {
        yaml.append(" ".repeat(line == 0 ? 0 : random.nextInt(3) * (random.nextBoolean() ? 2 : 1)))
            .append(prefixes[random.nextInt(prefixes.length)])
            .append(keys[random.nextInt(keys.length)])
            .append(values[random.nextInt(values.length)]);
        yaml.append('\n');
      }
      byte[] bytes = utf8(yaml.toString());
      if (BlockYamlReader.read(bytes) != null) {
        fast++;
      }
      assertSame(bytes);
    }
    assertThat(fast).isGreaterThan(1000); // 1,522 with these seeds
  }

  @Test
  void constructsOutsideTheSubsetAndRefusalsAreSnakeYamlsOwn() {
    List<String> documents =
        List.of(
            "a: 1\na: 2\n",
            "a: &x 1\nb: *x\n",
            "a: !!str 1\n",
            "base: {x: 1}\nc:\n  <<: {y: 2}\n",
            "a: |\n  text\n",
            "a: >\n  text\n",
            "a: [1, 2]\n",
            "a: {b: 1}\n",
            "? a\n: b\n",
            "%YAML 1.2\n---\na: 1\n",
            "a: 1\n---\nb: 2\n",
            "\uFEFFa: 1\n",
            "a:\tb\n",
            "a: b # c\n",
            "a: b: c\n",
            "a: \"unclosed\n",
            "a: \"\\q\"\n",
            "a: 1e999999999\n",
            "a: 0x" + "F".repeat(400) + "\n",
            "a:\n  b: 1\n c: 2\n",
            "- a\nb: 1\n",
            "a: b\n  c: d\n",
            "a: b\n\n  c\n",
            "a: b\n# x\n  c\n",
            "a:\n- 1\n  - 2\n",
            "",
            "# only a comment\n",
            "a",
            "a: 'it''s'\n",
            "a: \"\\u00e9\\x41\\U0001F600\\t\\\\\"\n",
            "a: \"\\uD800\"\n",
            "a: x\r\nb: y\r\n",
            "a: b\u2028c\n",
            "nested:\n" + "  ".repeat(1) + "x: " + "[".repeat(0) + "1\n",
            "a: " + "x".repeat(2_000_000) + "\n");
    for (String document : documents) {
      assertSame(utf8(document));
    }
    assertSame(new byte[] {'a', ':', ' ', (byte) 0xC3, '\n'});
    assertSame(new byte[] {'a', ':', ' ', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '\n'});
    assertSame(new byte[] {'a', ':', ' ', (byte) 0xC0, (byte) 0x80, '\n'});
  }

  @Test
  void longValuesNearSnakeYamlsValueBoundGetItsAnswer() {
    // ValueBoundReader refuses past 1,048,576 + 65,536 characters held beyond the last event; the
    // fast path reads up to 1,000,000 bytes across two values, and leaves the rest to SnakeYAML.
    int bound = ValueBoundReader.MAX_VALUE_CHARS;
    int[] sizes = {
      900_000,
      999_000,
      1_000_000,
      bound - 10,
      bound,
      bound + 10,
      bound + 65_000,
      bound + 66_000,
      bound + 70_000
    };
    for (int size : sizes) {
      String value = "x".repeat(size);
      assertSame(utf8("a: " + value + "\nb: 1\n"));
      assertSame(utf8("a: " + value + "\n" + "\n".repeat(150_000) + "b: 1\n"));
      assertSame(utf8("- " + value + "\n- " + value + "\n"));
      assertSame(utf8("a: '" + value + "'\n"));
      assertSame(utf8("# " + value + "\na: 1\n"));
      assertSame(utf8("a: 1\n" + "\n".repeat(size) + "b: 2\n"));
      assertSame(utf8("a: " + "\u00e9".repeat(size / 2) + "\nb: c\n"));
    }
    byte[] within = utf8("a: " + "x".repeat(600_000) + "\nb: " + "y".repeat(600_000) + "\n");
    assertThat(BlockYamlReader.read(within)).isNotNull();
    assertSame(within);
  }

  @Test
  void theEdgesOfTheSubsetGetSnakeYamlsAnswer() {
    List<String> documents =
        List.of(
            "a: |\n  x\n  y\nb: 1\n",
            "a: |-\n  x\n    more\n  y\nb: 1\n",
            "a: |-\n  x\n\n  y\n",
            "a: |\n  x\n\n\n  y\nb: 1\n",
            "a: |\n  x\n \n  y\n",
            "a: |\n  x\n   \n  y\n",
            "a: |\n  x\n\nb: 1\n",
            "a: |-\n  x\n\n\nb: 1\n",
            "a: |\n  x\n\n",
            "a: |\n  x\n\n  ",
            "a: |\n\n  x\n",
            "- |\n  x\n\n  y\n- z\n",
            "a: |\n  x\n",
            "a: |\n  x",
            "a: |\n x\n",
            "a: |\n  # not a comment\n  k: v\n",
            "- |\n  x\n- y\n",
            "a:\n  - |\n    x\n  - y\n",
            "a:\n- |-\n  x\n- y\nb: 2\n",
            "a: |\n    x\n  y\n",
            "a: |2\n  x\n",
            "a: |+\n  x\n\n",
            "a: | # c\n  x\n",
            "a: |\n  x\n  # c\n",
            "a: 'x\n  y'\n",
            "a: \"x\n  y\"\n",
            "a: 'x  \n   y'\n",
            "a: 'x\n\n  y'\n",
            "a: 'x\ny'\n",
            "- 'x\n  y'\n",
            "- \"x\n  y\"\n",
            "a: \"x\\\n  y\"\n",
            "a: \"x \\ \n  y\"\n",
            "a: 'it''s\n  ok'\n",
            "caf\u00e9: \u65e5\u672c\n",
            "a b: c\n",
            "a:  two spaces\n",
            "a:   \nb: 1\n",
            "- a\n-\n- b\n-",
            "---\na: 1\n",
            "--- \na: 1\n",
            "---\n# c\n\na: 1\n",
            "a: 1\n...\n",
            "a: x\n  y\n  z\nb: 1\n",
            "a: x\n  - y\n",
            "- x\n  y\n",
            "- - x\n    y\n  - z\n",
            "a:\n  b:\n  - 1\n  c: 2\n",
            "a: []\nb: {}\n- c\n",
            "[]\n",
            "a: 0x1F\nb: 0o17\nc: 1_000\nd: .inf\ne: 010\nf: -0\ng: +1.5e3\n",
            "a: 1e1000\n",
            "- " + "k".repeat(1010) + ": v\n",
            "- " + "k".repeat(1030) + ": v\n",
            "- " + "long ".repeat(400) + "x: y\n",
            "k".repeat(1030) + ": v\n",
            "a: '\u00e9'\nb: \"\\u00e9\"\n");
    for (String document : documents) {
      assertSame(utf8(document));
    }
    List<String> read =
        List.of(
            "a: |\n  x\n  y\nb: 1\n",
            "a: |-\n  x\n    more\n  y\nb: 1\n",
            "- |\n  x\n- y\n",
            "a: |\n  x\n\n\n  y\nb: 1\n",
            "a: |-\n  x\n  \n  y\n\nb: 1\n",
            "a: |\n  # not a comment\n  k: v\n",
            "a: 'x  \n   y'\n",
            "- \"x\n  y\"\n",
            "a: 'it''s\n  ok'\n",
            "- a\n-\n- b\n-",
            "---\na: 1\n",
            "- - x\n    y\n  - z\n",
            "a:\n  b:\n  - 1\n  c: 2\n",
            "- " + "long ".repeat(400) + "\n- b\n");
    for (String document : read) {
      assertThat(BlockYamlReader.read(utf8(document))).as(document).isNotNull();
      assertSame(utf8(document));
    }
  }

  @Test
  void deepNestingIsRefusedAsSnakeYamlRefusesIt() {
    StringBuilder yaml = new StringBuilder();
    for (int i = 0; i < 520; i++) {
      yaml.append(" ".repeat(i)).append("k:\n");
    }
    yaml.append(" ".repeat(520)).append("k: 1\n");
    assertSame(utf8(yaml.toString()));
  }

  @Test
  void theHeapEstimateSharesTextsAsSnakeYamlsPathDoes() throws JsonRefusal {
    StringBuilder yaml = new StringBuilder("items:\n");
    for (int i = 0; i < 6000; i++) { // more distinct short texts than either table keeps
      yaml.append("- name: n").append(i % 5000).append("\n  v: same\n");
    }
    byte[] bytes = utf8(yaml.toString());
    assertThat(BlockYamlReader.read(bytes)).isNotNull();
    assertSame(bytes);
  }

  private static byte[] mutate(byte[] yaml, Random random) {
    String[] inserts = {
      "\t", "#", " #", ":", ": ", "'", "\"", "&a ", "*a", "!", "|", ">", "- ", "-", "[", "]", "{",
      "}", "?", " ", "  ", "\n", "\n\n", "---\n", "...", "\\", "%", "@", "`", ",", "<<: ", "\r",
      "\u00e9", "\u2028", "\u0085", "\uFEFF", "0x1F", "1_000", ".inf", "~", "null", "yes", "010"
    };
    byte[] out = yaml;
    int count = 1 + random.nextInt(3);
    for (int m = 0; m < count; m++) {
      int at = out.length == 0 ? 0 : random.nextInt(out.length + 1);
      switch (random.nextInt(6)) {
        case 0, 1 -> out = splice(out, at, 0, utf8(inserts[random.nextInt(inserts.length)]));
        case 2 -> out = splice(out, at, Math.min(1 + random.nextInt(3), out.length - at), null);
        case 3 -> out = java.util.Arrays.copyOf(out, at); // truncated
        case 4 -> {
          byte[] bad = {(byte) 0xC3, (byte) 0xFF, (byte) 0x80, (byte) 0xE2, (byte) 0x28};
          out = splice(out, at, 0, new byte[] {bad[random.nextInt(bad.length)]});
        }
        default -> { // a line's indentation changed by one
          int line = at;
          while (line > 0 && out[line - 1] != '\n') {
            line--;
          }
          out =
              random.nextBoolean()
                  ? splice(out, line, 0, new byte[] {' '})
                  : (line < out.length && out[line] == ' ' ? splice(out, line, 1, null) : out);
        }
      }
    }
    return out;
  }

  private static byte[] splice(byte[] in, int at, int remove, byte[] insert) {
    byte[] add = insert == null ? new byte[0] : insert;
    byte[] out = new byte[in.length - remove + add.length];
    System.arraycopy(in, 0, out, 0, at);
    System.arraycopy(add, 0, out, at, add.length);
    System.arraycopy(in, at + remove, out, at + add.length, in.length - at - remove);
    return out;
  }

  /** Small Helm-index-shaped documents in the forms Go's yaml writes, from one seed. */
  private static final class Generator {
    private static final String[] SCALARS = {
      "v2",
      "1.10",
      "1.0",
      "010",
      "0x1F",
      "0o17",
      "1_000",
      ".inf",
      "-.inf",
      ".nan",
      "-1",
      "+1",
      "1e3",
      "3.14",
      "0",
      "true",
      "false",
      "True",
      "yes",
      "no",
      "on",
      "null",
      "~",
      "Null",
      "2026-11-10",
      "2026-11-10T12:34:56Z",
      "oci://registry-1.docker.io/bitnamicharts",
      "https://charts.example.com/a-1.0.0.tgz",
      "Example, Inc.",
      "a-b_c.d",
      "18.x.x",
      "<<",
      "caf\u00e9",
      "\u65e5\u672c\u8a9e",
      "emoji \uD83D\uDE00 here",
      "a \"quoted\" word",
      "it's",
      "x:y",
      "a#b",
      "50%",
      "C++",
      "foo [bar] {baz}",
      "-dash",
      "~tilde",
      "12345678901234567890"
    };
    private static final String[] QUOTED = {
      "\"2026-11-10T12:34:56.789012345Z\"",
      "\"1.0\"",
      "\"true\"",
      "\"\"",
      "''",
      "'yes'",
      "'it''s'",
      "\"a\\\"b\\\\c\\n\\t\"",
      "\"\\u00e9\\x41\"",
      "\"caf\u00e9\"",
      "'# not: a comment'",
      "\"\\U0001F600\"",
      "'a\\b'"
    };
    private static final String[] WORDS = {
      "chart",
      "deploys",
      "a",
      "Helm",
      "tool",
      "with",
      "many",
      "options",
      "caf\u00e9",
      "+-",
      "(beta)",
      "x=y",
      "http://example.com",
      "50%",
      "\u2014",
      "v1.2.3"
    };

    private final Random random;
    private final StringBuilder out = new StringBuilder();

    Generator(Random random) {
      this.random = random;
    }

    String document() {
      if (random.nextInt(10) == 0) {
        out.append("---\n");
      }
      if (random.nextInt(8) == 0) {
        out.append("# generated\n");
      }
      if (random.nextInt(12) == 0) {
        out.append("- ");
        sequenceItems(0, 0, true);
        return out.toString();
      }
      mapping(0, 0, true);
      return out.toString();
    }

    /** Entries of a mapping at column {@code c}; the first key's line already started. */
    private void mapping(int c, int depth, boolean first) {
      int entries = 1 + random.nextInt(depth == 0 ? 5 : 4);
      for (int i = 0; i < entries; i++) {
        if (!(first && i == 0)) {
          out.append(" ".repeat(c));
        }
        if (!(first && i == 0) && random.nextInt(20) == 0) {
          out.append("# a comment\n").append(" ".repeat(c));
        }
        String key = "k" + i + (random.nextInt(4) == 0 ? ".io/x-y" : "");
        value(c, depth, key + ":");
      }
    }

    /** A value after "key:" at column c. */
    private void value(int c, int depth, String keyColon) {
      int kind = depth > 4 ? random.nextInt(4) : random.nextInt(9);
      switch (kind) {
        case 0 -> out.append(keyColon).append(' ').append(scalar()).append('\n');
        case 1 ->
            out.append(keyColon)
                .append(' ')
                .append(QUOTED[random.nextInt(QUOTED.length)])
                .append('\n');
        case 2 -> out.append(HelmIndex.wrapped(keyColon + " ", c, words(10 + random.nextInt(30))));
        case 3 -> out.append(keyColon).append(random.nextBoolean() ? "\n" : " []\n");
        case 4 -> { // nested mapping
          out.append(keyColon).append('\n').append(" ".repeat(c + 2));
          mapping(c + 2, depth + 1, true);
        }
        case 5, 6 -> { // sequence: at the key's column (as Go writes it) or indented
          int s = kind == 5 ? c : c + 2;
          out.append(keyColon).append('\n').append(" ".repeat(s)).append("- ");
          sequenceItems(s, depth + 1, true);
        }
        case 7 -> {
          switch (random.nextInt(4)) {
            case 0 -> out.append(keyColon).append(" {}\n");
            case 1 -> out.append(wrappedQuoted(keyColon + " ", c, random.nextBoolean()));
            default -> out.append(keyColon).append(' ').append(literal(c));
          }
        }
        default -> out.append(keyColon).append(" ").append(scalar()).append('\n');
      }
    }

    /** Items of a sequence whose dashes stand at column s; the first "- " already written. */
    private void sequenceItems(int s, int depth, boolean first) {
      int items = 1 + random.nextInt(4);
      for (int i = 0; i < items; i++) {
        if (!(first && i == 0)) {
          out.append(" ".repeat(s)).append("- ");
        }
        int kind = depth > 4 ? random.nextInt(2) : random.nextInt(8);
        switch (kind) {
          case 0 -> out.append(scalar()).append('\n');
          case 1 -> out.append(QUOTED[random.nextInt(QUOTED.length)]).append('\n');
          case 2, 3 -> mapping(s + 2, depth + 1, true); // "- key: value"
          case 4 -> { // "- - a"
            out.append("- ");
            sequenceItems(s + 2, depth + 1, true);
          }
          case 5 -> out.append(HelmIndex.wrapped("", s, words(15 + random.nextInt(20))));
          case 6 -> out.append(wrappedQuoted("", s, random.nextBoolean()));
          default -> out.append(literal(s));
        }
      }
    }

    /** A quoted text with ": " in it, wrapped past 80 columns as go-yaml v2 wraps it. */
    private String wrappedQuoted(String prefix, int keyColumn, boolean doubleQuoted) {
      String text = words(12 + random.nextInt(20)).replace(" with ", ": with ");
      String quote = doubleQuoted ? "\"" : "'";
      String body =
          doubleQuoted ? text.replace("\\", "\\\\").replace("\"", "\\\"") : text.replace("'", "''");
      if (doubleQuoted && random.nextBoolean()) {
        body = body + " \\u00e9\\t\\x41";
      }
      return HelmIndex.wrapped(prefix + quote, keyColumn, body).replaceFirst("\n$", quote + "\n");
    }

    /** A literal block scalar, as Go's yaml writes a text of several lines. */
    private String literal(int owner) {
      boolean strip = random.nextBoolean();
      StringBuilder block = new StringBuilder(strip ? "|-\n" : "|\n");
      String indent = " ".repeat(owner + 2);
      int lines = 1 + random.nextInt(4);
      for (int i = 0; i < lines; i++) {
        block.append(indent).append(i > 0 && random.nextInt(4) == 0 ? "  " : "");
        block.append(
            switch (random.nextInt(5)) {
              case 0 -> "- name: image # not a comment";
              case 1 -> "image: docker.io/bitnami/redis:7.2.4-debian-12-r9";
              case 2 -> "caf\u00e9 'quoted' \"too\"";
              default -> words(3);
            });
        block.append('\n');
        if (i < lines - 1 && random.nextInt(5) == 0) {
          block.append('\n'); // an empty line inside the text
        }
      }
      return block.toString();
    }

    private String scalar() {
      return SCALARS[random.nextInt(SCALARS.length)];
    }

    private String words(int count) {
      StringBuilder text = new StringBuilder("start");
      for (int i = 0; i < count; i++) {
        text.append(' ').append(WORDS[random.nextInt(WORDS.length)]);
      }
      return text.toString();
    }
  }
}
