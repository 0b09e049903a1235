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
 * What an answer says means one thing however it is read (issue 21, items 3 and 4): a null the
 * upstream sends at a definite {@code select} is missing, as a null {@code value} is, never a value
 * a filter quietly drops every row for; and a stated {@code format: json} is JSON for {@code value}
 * as for {@code select}, a 502 naming it, never a 500 with a Java message.
 */
class BodyMeaningTest {
  @TempDir Path dir;

  private static String mapping(String name, String enrich, String filter) {
    return """
        name: %s
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/nodes"}
          items: "$[*]"
        enrich:
          cpu:
            request: {url: "#{vars.up}/nodes/#{item.id}"%s}
            %s
        %s
        parameters: {id: item.id, cpu: cpu}
        """
        .formatted(
            name,
            name.startsWith("json") ? ", format: json" : "",
            enrich.replace("\n", "\n    "),
            filter);
  }

  private PluginServer serve(StubUpstream stub, String... yamls) {
    return PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yamls);
  }

  @Test
  void aNullAtADefiniteSelectIsMissingNotAValue() {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            serve(
                stub,
                mapping("filtered", "select: \"$.cpuFree\"", "filter: \"cpu >= 4\""),
                mapping("dropped", "select: \"$.cpuFree\"\nonMissing: drop", ""),
                mapping("nulled", "select: \"$.cpuFree\"\nonMissing: \"null\"", ""))) {
      stub.on("GET /nodes", Reply.json(200, "[{\"id\":1},{\"id\":2}]"));
      stub.on("GET /nodes/1", Reply.json(200, "{\"cpuFree\":8}"));
      stub.on("GET /nodes/2", Reply.json(200, "{\"cpuFree\":null}"));
      Answer answer = plugin.getparams("filtered", "{}");
      // Before: node 2's null compared as "not >= 4", and it was gone with a 200.
      assertThat(answer.status()).as(answer.body()).isEqualTo(502);
      assertThat(answer.body())
          .isEqualTo(
              "{\"error\":\"mapping 'filtered': enrich.cpu GET "
                  + stub.url()
                  + "/nodes/2: select '$['cpuFree']' is null\"}");
      assertThat(plugin.getparams("dropped", "{}").body())
          .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\",\"cpu\":\"8\"}]}}");
      assertThat(plugin.getparams("nulled", "{}").body())
          .isEqualTo(
              "{\"output\":{\"parameters\":[{\"id\":\"1\",\"cpu\":\"8\"},"
                  + "{\"id\":\"2\",\"cpu\":null}]}}");
    }
  }

  @Test
  void aStatedJsonFormatIsJsonForValueAsForSelect() {
    String html = "<html><body>Sign in</body></html>";
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            serve(
                stub,
                mapping("json-value", "value: \"response.body.size\"", ""),
                mapping("json-select", "select: \"$.size\"", ""),
                mapping("json-whole", "", ""),
                mapping("text-value", "value: \"response.body.length()\"", ""))) {
      stub.on("GET /nodes", Reply.json(200, "[{\"id\":1}]"));
      stub.on(
          "GET /nodes/1",
          Reply.json(200, html).withHeader("Content-Type", "text/html; charset=utf-8"));
      for (String name : new String[] {"json-value", "json-select", "json-whole"}) {
        Answer answer = plugin.getparams(name, "{}");
        assertThat(answer.status()).as(name + ": " + answer.body()).isEqualTo(502);
        assertThat(answer.body())
            .as(name)
            .isEqualTo(
                "{\"error\":\"mapping '"
                    + name
                    + "': enrich.cpu GET "
                    + stub.url()
                    + "/nodes/1: answered 200 with text/html (not JSON):"
                    + " '<html><body>Sign in</body></html>'\"}");
      }
      // Without a stated format, a value still reads a body that is not JSON as its text.
      assertThat(plugin.getparams("text-value", "{}").body())
          .isEqualTo(
              "{\"output\":{\"parameters\":[{\"id\":\"1\",\"cpu\":\"" + html.length() + "\"}]}}");
    }
  }
}
