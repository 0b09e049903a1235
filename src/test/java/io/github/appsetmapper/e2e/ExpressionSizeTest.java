package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * What one evaluation builds is bounded as it is built, however it builds it: a projection whose
 * body reads a large list (each element counts the whole list), {@code +} in a projection or an
 * inline list, a product of big numbers. The red team's versions (a thousand elements times two
 * hundred thousand; 1,900 strings of 100,000 characters) ended the JVM from a 400 KB request; these
 * are smaller, so that without the bound the answer is a wrong 200 rather than a dead test JVM, and
 * the same bound refuses them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExpressionSizeTest {
  private PluginServer plugin;

  private static String mapping(String name, String parameter) {
    return "name: "
        + name
        + "\ninput:\n  a: {type: list, default: []}\n  b: {type: list, default: []}\n"
        + "  s: {default: ''}\n  n: {type: number, default: 1}\n"
        + "parameters:\n  x: \""
        + parameter
        + "\"\n";
  }

  @BeforeAll
  void start(@TempDir Path dir) {
    StringBuilder inline = new StringBuilder("{");
    for (int i = 0; i < 90; i++) {
      inline.append(i == 0 ? "" : ", ").append("input.s + '").append(i).append("'");
    }
    plugin =
        PluginServer.withYaml(
            dir,
            Map.of(),
            Map.of(),
            mapping("cross", "input.a.![#root.input.b]"),
            mapping("plus", "input.a.![#this + #root.input.s]"),
            mapping("inline", inline.append("}").toString()),
            mapping("product", "input.n" + " * input.n".repeat(10)),
            mapping("fine", "input.a.![#this + '-' + #root.input.s]"),
            mapping("splits", "input.s.split('').size() + input.s.split('').size()"));
  }

  @AfterAll
  void stop() {
    plugin.close();
  }

  private static String list(int n, String element) {
    StringBuilder out = new StringBuilder("[");
    for (int i = 0; i < n; i++) {
      out.append(i == 0 ? "" : ",").append(element);
    }
    return out.append("]").toString();
  }

  private Answer call(String mapping, String parameters) {
    return plugin.getparams(mapping, "{\"input\":{\"parameters\":{" + parameters + "}}}");
  }

  private void assertRefusedAndAlive(Answer answer, String mapping, String what) {
    assertThat(answer.status()).as(answer.body()).isEqualTo(500);
    assertThat(answer.body()).startsWith("{\"error\":\"mapping '" + mapping + "': parameters.x '");
    if (!mapping.equals("inline")) { // its expression alone fills the message
      assertThat(answer.body())
          .contains(
              "failed on row 0: "
                  + what
                  + " would take what this expression builds past 8388608 characters (strings,"
                  + " and lists and maps counted as the JSON they would write, and 16 more for each value); compute a part"
                  + " that repeats once per row with a let (each let has its own budget), or"
                  + " narrow the list it walks\"}");
    }
    assertThat(call("fine", "\"a\":[\"p\",\"q\"],\"s\":\"z\"").body())
        .isEqualTo("{\"output\":{\"parameters\":[{\"x\":[\"p-z\",\"q-z\"]}]}}");
  }

  @Test
  void aProjectionCountsWhatEachElementHoldsEvenWhenItIsTheSameList() {
    Answer answer = call("cross", "\"a\":" + list(100, "1") + ",\"b\":" + list(100_000, "7"));
    assertRefusedAndAlive(answer, "cross", "a projection");
  }

  /**
   * Half a million one-character parts were counted as their text alone (1.5 MB of the 8 MB
   * allowance) while each is an object on the heap: two such splits in one parameter, on ten
   * getparams at once, ended a 256 MiB JVM (an outside tester's find). Each value counts its
   * header.
   */
  @Test
  void aSplitIntoManyPartsCountsEachPartsObject() {
    Answer answer = call("splits", "\"s\":\"" + "ab".repeat(250_000) + "\"");
    assertRefusedAndAlive(answer, "splits", "split");
  }

  @Test
  void stringsThePlusOperatorBuildsInAProjectionAreCounted() {
    Answer answer =
        call("plus", "\"a\":" + list(100, "\"e\"") + ",\"s\":\"" + "s".repeat(99_000) + "\"");
    assertRefusedAndAlive(answer, "plus", "the operator '+'");
  }

  @Test
  void stringsAnInlineListBuildsAreCountedOneByOne() {
    Answer answer = call("inline", "\"s\":\"" + "s".repeat(99_000) + "\"");
    assertRefusedAndAlive(answer, "inline", "the operator '+'");
  }

  @Test
  void aProductOfBigNumbersIsBounded() {
    Answer answer = call("product", "\"n\":" + "9".repeat(1000));
    assertThat(answer.status()).as(answer.body()).isEqualTo(500);
    assertThat(answer.body())
        .endsWith(
            "failed on row 0: the operator '*' would build a number of more than 10000"
                + " digits\"}");
  }
}
