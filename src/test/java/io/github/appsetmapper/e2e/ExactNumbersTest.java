package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A number computed from upstream data is exact and finite, or the getparams fails naming the
 * expression: never a wrapped-around integer or "NaN" in an Application's parameters. Over HTTP,
 * against a real upstream and the real server, both on port 0.
 */
class ExactNumbersTest {
  // A decimal from upstream JSON is exact (BigDecimal: 0.0 / 0.0 is "/ by zero"); a decimal
  // literal is a double, and double arithmetic is where NaN and Infinity come from.
  private static String mapping(String name, String keepTypes, String filter, String parameter) {
    return "name: "
        + name
        + "\n"
        + keepTypes
        + "vars:\n  up: {default: 'http://unset.invalid'}\n"
        + "list:\n  request: {url: \"#{vars.up}/items\"}\n  items: \"$[*]\"\n"
        + filter
        + "parameters:\n  value: \""
        + parameter
        + "\"\n";
  }

  private static String error(String mapping, String field, String expression, String cause) {
    return "{\"error\":\"mapping '"
        + mapping
        + "': "
        + field
        + " '"
        + expression
        + "' failed on row 0: "
        + cause
        + "\"}";
  }

  @Test
  void overflowNanAndARepeatedKeyFailTheGetparams(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /items",
          Reply.json(
              200,
              "[{\"n\":2147483647,\"l\":9223372036854775807,\"z\":0.0,\"a\":1,\"b\":\"1\","
                  + "\"k\":[1],\"m\":{\"a\":1}}]"));
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir,
              Map.of("up", stub.url()),
              Map.of(),
              mapping("int", "", "", "item.n + 1"),
              mapping("long", "keepTypes: true\n", "", "item.l * 2"),
              mapping("nan", "keepTypes: true\n", "", "(item.a - 1.0) / (item.a - 1.0)"),
              mapping("nan-text", "", "", "'v' + (1.0 / (item.a - 1))"),
              mapping("keys", "", "", "{(item.a): 'x', (item.b): 'y'}"),
              mapping("list-key", "", "", "{(item.k): 'x'}"),
              mapping("map-key", "", "", "{(item.m): 'x'}"),
              mapping(
                  "filter",
                  "",
                  "enrich:\n  more:\n    request: {url: \"#{vars.up}/more\"}\n"
                      + "filter: \"item.n + 1 > 0 and more != null\"\n",
                  "item.a"),
              mapping("fits", "keepTypes: true\n", "", "item.n - 1 + 1"))) {
        assertThat(plugin.getparams("fits", "{}").body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"value\":2147483647}]}}");
        Answer overflow = plugin.getparams("int", "{}");
        assertThat(overflow.status()).isEqualTo(500);
        assertThat(overflow.body())
            .isEqualTo(
                error(
                    "int",
                    "parameters.value",
                    "item.n + 1",
                    "the operator '+' overflows: the result does not fit a 32-bit integer"));
        assertThat(plugin.getparams("long", "{}").body())
            .isEqualTo(
                error(
                    "long",
                    "parameters.value",
                    "item.l * 2",
                    "the operator '*' overflows: the result does not fit a 64-bit integer"));
        assertThat(plugin.getparams("nan", "{}").body())
            .isEqualTo(
                error(
                    "nan",
                    "parameters.value",
                    "(item.a - 1.0) / (item.a - 1.0)",
                    "the operator '/' gives NaN, which is not a number JSON can hold"));
        assertThat(plugin.getparams("nan-text", "{}").body())
            .isEqualTo(
                error(
                    "nan-text",
                    "parameters.value",
                    "'v' + (1.0 / (item.a - 1))",
                    "the operator '/' gives Infinity, which is not a number JSON can hold"));
        assertThat(plugin.getparams("keys", "{}").body())
            .isEqualTo(
                error(
                    "keys",
                    "parameters.value",
                    "{(item.a): 'x', (item.b): 'y'}",
                    "the inline map {item.a:'x',item.b:'y'} has two keys that are the same text"));
        // A list or map key was answered as Java's text of it: {"[1]":"x"}, {"{a=1}":"x"}.
        for (String name : new String[] {"list-key", "map-key"}) {
          String field = name.equals("list-key") ? "k" : "m";
          Answer shapeless = plugin.getparams(name, "{}");
          assertThat(shapeless.status()).isEqualTo(500);
          assertThat(shapeless.body())
              .isEqualTo(
                  error(
                      name,
                      "parameters.value",
                      "{(item." + field + "): 'x'}",
                      "the inline map {item."
                          + field
                          + ":'x'} has a list or a map as a key: an inline map's key must be"
                          + " text, a number or a boolean"));
        }
        // With an enrich step, a filter's leading operand runs on its own, before the step: exact
        // as the whole is (it said false on the wrapped -2147483648 and dropped the row, no error).
        // Its error leaves the row undecided; the whole filter then fails it, after the step.
        stub.on("GET /more", Reply.json(200, "{}"));
        Answer filter = plugin.getparams("filter", "{}");
        assertThat(filter.status()).isEqualTo(500);
        assertThat(filter.body())
            .isEqualTo(
                error(
                    "filter",
                    "filter",
                    "item.n + 1 > 0 and more != null",
                    "the operator '+' overflows: the result does not fit a 32-bit integer"));
      }
    }
  }

  /**
   * An outside tester's finds: {@code 1e1000 ^ 100000 + 1} spun the IO thread past the deadline (a
   * hundred-million-digit sum), {@code ^} cut a long exponent to 32 bits, and a JSON decimal's
   * quotient was rounded to its scale ({@code 0.1 / 3} was 0.0). Each is now an error or exact.
   */
  @Test
  void bigDecimalsStayBoundedAndQuotientsExact(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /items",
          Reply.json(200, "[{\"e\":1e999,\"f\":0.1,\"x\":1.5,\"big\":99999999999999999999}]"));
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir,
              Map.of("up", stub.url()),
              Map.of(),
              mapping("hang", "input:\n  n: {}\n", "", "(#toNumber(input.n) ^ 100000) + 1"),
              mapping("upstream", "", "", "item.e ^ 100000 + 1"),
              mapping("cut", "", "", "item.x ^ 4294967297L"),
              mapping("third", "keepTypes: true\n", "", "item.f / 3"))) {
        Answer hang = plugin.getparams("hang", "{\"input\":{\"parameters\":{\"n\":\"1e1000\"}}}");
        assertThat(hang.status()).isEqualTo(500);
        String beyond =
            "the operator '^' gives a number beyond 10000 digits or a scale beyond \u00b110000";
        assertThat(hang.body())
            .isEqualTo(
                error("hang", "parameters.value", "(#toNumber(input.n) ^ 100000) + 1", beyond));
        Answer upstream = plugin.getparams("upstream", "{}");
        assertThat(upstream.status()).isEqualTo(500);
        assertThat(upstream.body())
            .isEqualTo(error("upstream", "parameters.value", "item.e ^ 100000 + 1", beyond));
        Answer cut = plugin.getparams("cut", "{}");
        assertThat(cut.status()).isEqualTo(500);
        assertThat(cut.body())
            .isEqualTo(
                error(
                    "cut",
                    "parameters.value",
                    "item.x ^ 4294967297L",
                    "the operator '^' needs a whole exponent from 0 to 2147483647 for a big"
                        + " integer or an exact decimal"));
        assertThat(plugin.getparams("third", "{}").body())
            .isEqualTo(
                "{\"output\":{\"parameters\":[{\"value\":0.03333333333333333333333333333333333}]}}");
      }
    }
  }

  /**
   * An upstream integer no double holds (2^53 + 1) beside a double literal is computed and compared
   * exactly: SpEL made it a double, so {@code + 0.5} answered 9007199254740992 and a filter on
   * {@code == 9007199254740992.0} kept the wrong row.
   */
  @Test
  void anIntegerNoDoubleHoldsMeetsADoubleExactly(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /items",
          Reply.json(
              200,
              "[{\"name\":\"odd\",\"x\":9007199254740993,\"big\":100000000000000000001},"
                  + "{\"name\":\"even\",\"x\":9007199254740992,\"big\":1}]"));
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir,
              Map.of("up", stub.url()),
              Map.of(),
              mapping(
                  "half", "keepTypes: true\n", "filter: \"item.name == 'odd'\"\n", "item.x + 0.5"),
              mapping("text", "", "filter: \"item.name == 'odd'\"\n", "item.big * 0.1"),
              mapping("equal", "", "filter: \"item.x == 9007199254740992.0\"\n", "item.name"),
              mapping("above", "", "filter: \"item.x > 9007199254740992.0\"\n", "item.name"),
              mapping(
                  "between",
                  "",
                  "filter: \"item.x between {9007199254740990.0, 9007199254740992.0}\"\n",
                  "item.name"),
              mapping("path", "", "", "item.name")
                  .replace("$[*]", "$[?(@.x == 9007199254740992.0)]"),
              mapping(
                  "argument",
                  "",
                  "filter: \"item.name == 'odd'\"\n",
                  "(9007199254740992.0).compareTo(item.x)"))) {
        assertThat(plugin.getparams("half", "{}").body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"value\":9007199254740993.5}]}}");
        assertThat(plugin.getparams("text", "{}").body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"value\":\"10000000000000000000.1\"}]}}");
        String even = "{\"output\":{\"parameters\":[{\"value\":\"even\"}]}}";
        assertThat(plugin.getparams("equal", "{}").body()).isEqualTo(even);
        assertThat(plugin.getparams("between", "{}").body()).isEqualTo(even);
        // A JsonPath filter compares numbers as exact decimals (Jayway's): it always was so.
        assertThat(plugin.getparams("path", "{}").body()).isEqualTo(even);
        assertThat(plugin.getparams("above", "{}").body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"value\":\"odd\"}]}}");
        Answer argument = plugin.getparams("argument", "{}");
        assertThat(argument.status()).isEqualTo(500);
        assertThat(argument.body())
            .isEqualTo(
                error(
                    "argument",
                    "parameters.value",
                    "(9007199254740992.0).compareTo(item.x)",
                    "the number 9007199254740993 cannot be an argument that takes a double: it"
                        + " would become 9007199254740992"));
      }
    }
  }

  /**
   * An integer a double holds beside a double is still computed exactly where the double result
   * would round (an outside tester's find): {@code item.n + 0.5} with {@code n} at 2^53 gave the
   * integer back and {@code == item.n} was true. Where the double is right, it stays SpEL's.
   */
  @Test
  void anIntegerADoubleHoldsIsNotRoundedByTheDoubleResult(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /items",
          Reply.json(200, "[{\"n\":9007199254740992},{\"n\":4503599627370497},{\"n\":3}]"));
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir,
              Map.of("up", stub.url()),
              Map.of(),
              mapping("half", "keepTypes: true\n", "", "item.n + 0.5"),
              mapping("same", "", "", "item.n + 0.5 == item.n"),
              mapping("tiny", "", "filter: \"item.n == 3\"\n", "350224384 + 0.00000000000000001"),
              mapping("times", "keepTypes: true\n", "filter: \"item.n == 3\"\n", "item.n * 0.1"),
              mapping("rest", "keepTypes: true\n", "filter: \"item.n == 3\"\n", "item.n % 0.1"),
              mapping("kept", "keepTypes: true\n", "filter: \"item.n == 3\"\n", "item.n + 0.25"),
              mapping("ratio", "keepTypes: true\n", "filter: \"item.n == 3\"\n", "item.n / 7.0"))) {
        assertThat(plugin.getparams("half", "{}").body())
            .isEqualTo(
                "{\"output\":{\"parameters\":[{\"value\":9007199254740992.5},"
                    + "{\"value\":4503599627370497.5},{\"value\":3.5}]}}");
        assertThat(plugin.getparams("same", "{}").body())
            .isEqualTo(
                "{\"output\":{\"parameters\":[{\"value\":\"false\"},{\"value\":\"false\"},"
                    + "{\"value\":\"false\"}]}}");
        assertThat(plugin.getparams("tiny", "{}").body())
            .isEqualTo(
                "{\"output\":{\"parameters\":[{\"value\":\"350224384.00000000000000001\"}]}}");
        assertThat(plugin.getparams("times", "{}").body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"value\":0.3}]}}");
        assertThat(plugin.getparams("rest", "{}").body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"value\":0}]}}");
        assertThat(plugin.getparams("kept", "{}").body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"value\":3.25}]}}");
        // A quotient stays the double's: most have no exact decimal.
        assertThat(plugin.getparams("ratio", "{}").body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"value\":0.42857142857142855}]}}");
      }
    }
  }

  /**
   * Every number an expression can compute within its bounds (a scale within &plusmn;10,000) is
   * written plainly, as the docs say: {@code 1E+9999} was written in scientific form, the plain
   * form stopping at a scale of 4,000.
   */
  @Test
  void aComputedNumberWithinTheBoundsIsWrittenPlainly(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /items", Reply.json(200, "[{\"e\":1e909}]"));
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir,
              Map.of("up", stub.url()),
              Map.of(),
              mapping("typed", "keepTypes: true\n", "", "item.e ^ 11"),
              mapping("text", "", "", "item.e ^ 11"),
              mapping("small", "keepTypes: true\n", "", "1 / (item.e ^ 11)"))) {
        String plain = "1" + "0".repeat(9999);
        assertThat(plugin.getparams("typed", "{}").body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"value\":" + plain + "}]}}");
        assertThat(plugin.getparams("text", "{}").body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"value\":\"" + plain + "\"}]}}");
        assertThat(plugin.getparams("small", "{}").body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"value\":0." + "0".repeat(9998) + "1}]}}");
      }
    }
  }

  /**
   * An outside tester's finds. A real literal no double holds counts as the decimal written: the
   * filter {@code item.size >= 9223372036854775808.0 or item.size <= -9223372036854775808.0} kept
   * no row (a 200 with an empty list, and Argo CD deletes the Applications), the literal counted as
   * 9.223372036854776E18. An upstream decimal ({@code 9223372036854775808.0}) is read exact. And
   * {@code indexOf}/{@code split} wrapped a long argument into an int and answered a wrong 200.
   */
  @Test
  void aWrittenDecimalAndAnIntegerArgumentKeepTheirValue(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /items",
          Reply.json(
              200,
              "[{\"name\":\"a\",\"size\":9223372036854775808,\"s\":\"abcdef\",\"big\":4294967298},"
                  + "{\"name\":\"b\",\"size\":-9223372036854775808},"
                  + "{\"name\":\"c\",\"size\":9223372036854775808.0},"
                  + "{\"name\":\"d\",\"size\":9223372036854775807}]"));
      String sides =
          "filter: \"item.size >= 9223372036854775808.0 or item.size <= -9223372036854775808.0\"\n";
      String first = "filter: \"item.name == 'a'\"\n";
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir,
              Map.of("up", stub.url()),
              Map.of(),
              mapping("sides", "", sides, "item.name"),
              mapping("diff", "", sides, "item.size - 9223372036854775808.0"),
              mapping("index", "", first, "item.s.indexOf('c', item.big)"),
              mapping("split", "", first, "item.s.split('b', 4294967297L)"),
              mapping("half", "", first, "item.s.lastIndexOf('c', 1.5)"))) {
        assertThat(plugin.getparams("sides", "{}").body())
            .isEqualTo(
                "{\"output\":{\"parameters\":[{\"value\":\"a\"},{\"value\":\"b\"},"
                    + "{\"value\":\"c\"}]}}");
        // The upstream decimal keeps its scale (0.0), as any JSON decimal does.
        assertThat(plugin.getparams("diff", "{}").body())
            .isEqualTo(
                "{\"output\":{\"parameters\":[{\"value\":\"0\"},"
                    + "{\"value\":\"-18446744073709551616\"},{\"value\":\"0.0\"}]}}");
        String range =
            " cannot be an argument that takes an integer from -2147483648 to 2147483647";
        Answer index = plugin.getparams("index", "{}");
        assertThat(index.status()).isEqualTo(500);
        assertThat(index.body())
            .isEqualTo(
                error(
                    "index",
                    "parameters.value",
                    "item.s.indexOf('c', item.big)",
                    "the number 4294967298" + range));
        assertThat(plugin.getparams("split", "{}").body())
            .isEqualTo(
                error(
                    "split",
                    "parameters.value",
                    "item.s.split('b', 4294967297L)",
                    "the number 4294967297" + range));
        assertThat(plugin.getparams("half", "{}").body())
            .isEqualTo(
                error(
                    "half",
                    "parameters.value",
                    "item.s.lastIndexOf('c', 1.5)",
                    "the number 1.5 cannot be an argument that takes an integer: it would become 1"));
      }
    }
  }
}
