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
 * A number from upstream JSON (an integer, or a decimal with its scale: {@code 1.0}) equals the
 * numbers a mapping writes wherever {@code ==} says so: in a filter's {@code contains}, a lookup in
 * an inline map, {@code ==} on lists and a distinctBy key that is a list. Java's equality kept rows
 * apart (or dropped them) by the Java type of a number. Over HTTP, against a real upstream and the
 * real server, both on port 0.
 */
class NumberEqualityTest {
  private static String mapping(String name, String steps, String parameter) {
    return """
        name: %s
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/rows"}
          items: "$[*]"
        %s
        parameters: {id: item.id, value: "%s"}
        """
        .formatted(name, steps, parameter);
  }

  @Test
  void numbersFromJsonMatchWrittenNumbersByValue(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir,
                Map.of("up", stub.url()),
                Map.of(),
                mapping(
                    "wanted", "filter: \"{1, 2.5, 9007199254740993.0}.contains(item.n)\"", "'x'"),
                mapping("named", "", "{1: 'one', 2.5: 'two and a half'}[item.n]"),
                mapping("lists", "filter: \"item.v == {1, 2}\"", "'y'"),
                mapping("distinct", "distinctBy: item.v", "'z'"))) {
      stub.on(
          "GET /rows",
          Reply.json(
              200,
              "[{\"id\":\"a\",\"n\":1.0,\"v\":[1,2]},{\"id\":\"b\",\"n\":2.50,\"v\":[1.0,2.00]},"
                  + "{\"id\":\"c\",\"n\":9007199254740993,\"v\":[1,3]},"
                  + "{\"id\":\"d\",\"n\":9007199254740992,\"v\":[2,1]}]"));
      Answer wanted = plugin.getparams("wanted", "{}");
      assertThat(wanted.status()).as(wanted.body()).isEqualTo(200);
      // 2^53 is not the 2^53 + 1 written: the row d stays out, as == says.
      assertThat(wanted.body())
          .isEqualTo(
              "{\"output\":{\"parameters\":[{\"id\":\"a\",\"value\":\"x\"},"
                  + "{\"id\":\"b\",\"value\":\"x\"},{\"id\":\"c\",\"value\":\"x\"}]}}");
      assertThat(plugin.getparams("named", "{}").body())
          .isEqualTo(
              "{\"output\":{\"parameters\":[{\"id\":\"a\",\"value\":\"one\"},"
                  + "{\"id\":\"b\",\"value\":\"two and a half\"},{\"id\":\"c\",\"value\":null},"
                  + "{\"id\":\"d\",\"value\":null}]}}");
      assertThat(plugin.getparams("lists", "{}").body())
          .isEqualTo(
              "{\"output\":{\"parameters\":[{\"id\":\"a\",\"value\":\"y\"},"
                  + "{\"id\":\"b\",\"value\":\"y\"}]}}");
      // [1, 2] and [1.0, 2.00] are one key; [2, 1] is another (a list's order counts).
      assertThat(plugin.getparams("distinct", "{}").body())
          .isEqualTo(
              "{\"output\":{\"parameters\":[{\"id\":\"a\",\"value\":\"z\"},"
                  + "{\"id\":\"c\",\"value\":\"z\"},{\"id\":\"d\",\"value\":\"z\"}]}}");
    }
  }

  @Test
  void aFloatKeyIsNotTheDecimalItIsWrittenAs(@TempDir Path dir) {
    // 0.1f == 0.1 is false: two rows whose keys == calls different are two rows, not one lost.
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir,
                Map.of("up", stub.url()),
                Map.of(),
                mapping("floats", "distinctBy: \"item.k == 1 ? 0.1f : 0.1\"", "'f'"))) {
      stub.on("GET /rows", Reply.json(200, "[{\"id\":\"a\",\"k\":1},{\"id\":\"b\",\"k\":2}]"));
      Answer answer = plugin.getparams("floats", "{}");
      assertThat(answer.status()).as(answer.body()).isEqualTo(200);
      assertThat(answer.body())
          .isEqualTo(
              "{\"output\":{\"parameters\":[{\"id\":\"a\",\"value\":\"f\"},"
                  + "{\"id\":\"b\",\"value\":\"f\"}]}}");
    }
  }
}
