package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.appsetmapper.compile.CompileOptions;
import io.github.appsetmapper.compile.MappingCompiler;
import io.github.appsetmapper.config.MappingException;
import io.github.appsetmapper.config.MappingParser;
import io.github.appsetmapper.config.Problem;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code validate} accepts runs: every expression of this corpus (the scoping cases of {@code
 * .?[...]} and {@code .![...]}, {@code #this} and {@code #root}) is either refused when the file
 * loads, with the message given here, or served over HTTP with the answer given here. Never
 * accepted at load and then a 500.
 */
class ScopingCorpusTest {
  @TempDir Path dir;

  /**
   * An expression and what it gives: {@code =json} (the parameter as the answer holds it) or {@code
   * !message} (the load error).
   */
  private record Case(String expression, String expected) {}

  private static final String ROW =
      """
      [{"name": "web",
        "tags": ["v1.9.0", "v1.10.0", "v2.0.0-rc.1", "latest"],
        "env": {"REGION": "eu", "TIER": "gold", "EMPTY": ""},
        "labels": [{"name": "bug", "item": "own"}, {"name": "ui"}],
        "min": 3}]
      """;

  private static final List<Case> CORPUS =
      List.of(
          // Inside .?[...] and .![...] #this is the element, names read the element's fields.
          new Case("item.tags.?[#this.startsWith('v1')]", "=[\"v1.9.0\",\"v1.10.0\"]"),
          new Case("item.tags.?[length() > 6]", "=[\"v1.10.0\",\"v2.0.0-rc.1\"]"),
          new Case(
              "item.tags.![#upper(#this)]", "=[\"V1.9.0\",\"V1.10.0\",\"V2.0.0-RC.1\",\"LATEST\"]"),
          new Case("item.labels.![name]", "=[\"bug\",\"ui\"]"),
          new Case("item.labels.?[name == 'ui'].size()", "=\"1\""),
          new Case("item.labels.![#this.item]", "=[\"own\",null]"),
          new Case("item.labels.![#this['item']]", "=[\"own\",null]"),
          // #root is the scope everywhere: the row's item, the input.
          new Case(
              "item.tags.?[#this.length() > #root.item.min + 3]", "=[\"v1.10.0\",\"v2.0.0-rc.1\"]"),
          new Case("item.labels.?[name == #root.input.label].size()", "=\"1\""),
          new Case(
              "item.tags.![#root.item.name + '-' + #this]",
              "=[\"web-v1.9.0\",\"web-v1.10.0\",\"web-v2.0.0-rc.1\",\"web-latest\"]"),
          // A map's entries: key and value; another name reads null, as a missing key does.
          new Case("item.env.![key]", "=[\"REGION\",\"TIER\",\"EMPTY\"]"),
          new Case("item.env.?[value == 'gold'].keySet()", "=[\"TIER\"]"),
          new Case("item.env.?[#this.key == 'REGION'].values()", "=[\"eu\"]"),
          new Case("item.env.![name]", "=[null,null,null]"),
          new Case("item.env.![key + '=' + value]", "=[\"REGION=eu\",\"TIER=gold\",\"EMPTY=\"]"),
          // Nested: the inner element is the inner #this; #root stays the scope.
          new Case(
              "item.labels.![#root.item.tags.?[#this.contains('rc')].size()]", "=[\"1\",\"1\"]"),
          new Case("item.tags.^[#this.startsWith('v1')]", "=\"v1.9.0\""),
          new Case("item.tags.$[#this.startsWith('v1')]", "=\"v1.10.0\""),
          // A name of the scope read inside: the element's field, not the scope's. Refused.
          new Case(
              "item.env.?[item.name == 'web']",
              "!inside a projection or selection 'item' reads the element; write #root.item for"
                  + " the scope's item, or #this.item for the element's field (in"
                  + " 'item.env.?[item.name == 'web']')"),
          new Case(
              "item.labels.?[name == input.label]",
              "!inside a projection or selection 'input' reads the element; write #root.input for"
                  + " the scope's input, or #this.input for the element's field (in"
                  + " 'item.labels.?[name == input.label]')"),
          new Case(
              "item.tags.?[#this.length() > vars.n]",
              "!inside a projection or selection 'vars' reads the element; write #root.vars for"
                  + " the scope's vars, or #this.vars for the element's field (in"
                  + " 'item.tags.?[#this.length() > vars.n]')"),
          new Case(
              "item.labels.![applicationSetName]",
              "!inside a projection or selection 'applicationSetName' reads the element; write"
                  + " #root.applicationSetName for the scope's applicationSetName, or"
                  + " #this.applicationSetName for the element's field (in"
                  + " 'item.labels.![applicationSetName]')"),
          // #this outside a projection is the whole scope; #root alone is the scope too.
          new Case(
              "#this",
              "!#this alone is the whole scope here (it is the element only inside .?[...] and"
                  + " .![...]); name what you read, as item or #this.item (in '#this')"),
          new Case(
              "item.tags.contains(#this)",
              "!#this alone is the whole scope here (it is the element only inside .?[...] and"
                  + " .![...]); name what you read, as item or #this.item (in"
                  + " 'item.tags.contains(#this)')"),
          new Case(
              "item.tags.![#root]",
              "!#root alone is not allowed; name what you read, as #root.input (in"
                  + " 'item.tags.![#root]')"),
          new Case("#this.item.name", "=\"web\""),
          new Case("item.tags.contains(#this.item.tags[0])", "=\"true\""),
          new Case(
              "item.tags.![#root.secret]",
              "!'secret' can be used only inside a request (url, query, headers, body, auth)"));

  private static String mapping(int index, String expression) {
    return """
        name: c%d
        input:
          label: {default: ui}
        vars:
          up: {default: "http://unset.invalid"}
          n: {default: "3"}
        list:
          request: {url: "#{vars.up}/rows"}
          items: "$[*]"
        parameters:
          x: %s
        """
        .formatted(index, quoted(expression));
  }

  private static String quoted(String expression) {
    return "\"" + expression.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private static List<String> loadProblems(String yaml) {
    MappingException refused =
        catchThrowableOfType(
            MappingException.class,
            () ->
                MappingCompiler.compile(
                    MappingParser.parse("m.yaml", yaml).get(0),
                    new CompileOptions(
                        Map.of("up", "http://127.0.0.1:1"), n -> null, new Redactor())));
    return refused == null ? List.of() : refused.problems().stream().map(Problem::message).toList();
  }

  @Test
  void everyExpressionIsRefusedAtLoadOrRuns() {
    List<String> served = new ArrayList<>();
    List<Case> accepted = new ArrayList<>();
    for (int i = 0; i < CORPUS.size(); i++) {
      Case c = CORPUS.get(i);
      String yaml = mapping(i, c.expression());
      List<String> problems = loadProblems(yaml);
      if (c.expected().startsWith("!")) {
        assertThat(problems).as(c.expression()).containsExactly(c.expected().substring(1));
      } else {
        assertThat(problems).as(c.expression() + " loads").isEmpty();
        served.add(yaml);
        accepted.add(c);
      }
    }
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /rows", Reply.json(200, ROW));
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir, Map.of("up", stub.url()), Map.of(), served.toArray(String[]::new))) {
        for (Case c : accepted) {
          String name = "c" + CORPUS.indexOf(c);
          Answer answer =
              plugin.getparams(
                  name, "{\"applicationSetName\":\"a\",\"input\":{\"parameters\":{}}}");
          assertThat(answer.status()).as(c.expression() + ": " + answer.body()).isEqualTo(200);
          assertThat(answer.body())
              .as(c.expression())
              .isEqualTo(
                  "{\"output\":{\"parameters\":[{\"x\":" + c.expected().substring(1) + "}]}}");
        }
      }
    }
  }
}
