package io.github.appsetmapper.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.appsetmapper.config.MappingException;
import io.github.appsetmapper.config.MappingParser;
import io.github.appsetmapper.config.Problem;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.server.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a first-time author writes wrong is refused when the mapping loads, in one line at the
 * field's place that says the fix: a malformed expression whatever SpEL's parser throws on it, and
 * Go's or the shell's template syntax, which SpEL reads as a list or sends as written.
 */
class AuthorSlipsLoadTest {
  private static final String LIST =
      "name: m\nlist:\n  request:\n    url: \"https://api.example.com/a\"\n";

  private static List<String> problems(String yaml) {
    MappingException e =
        catchThrowableOfType(
            MappingException.class,
            () ->
                MappingCompiler.compile(
                    MappingParser.parse("m.yaml", yaml).get(0),
                    new CompileOptions(Map.of(), n -> null, new Redactor())));
    assertThat(e).as("refused").isNotNull();
    return e.problems().stream().map(Problem::toString).toList();
  }

  private static String parameter(String expression) {
    return LIST + "  items: \"$[*]\"\nparameters:\n  x: " + Json.write(expression) + "\n";
  }

  private static String query(String template) {
    return LIST
        + "    query: {b: "
        + Json.write(template)
        + "}\n  items: \"$[*]\"\nparameters:\n  x: item\n";
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{ .x }",
        "{{ .x }}",
        "{a:}",
        "{ , }",
        "a ? .y : 1",
        "#default(.x, 1)",
        "item.s.replace(.a,'b')",
        "item.x between {.a,1}",
        "{1,}",
        "{a:{b:}}",
        "{.x:1}",
        "{1:.x}",
        "{.x,.y}",
        "{ .x }.size()",
        "item.m(,)",
        "item.m(.a)",
        "#first(,)",
        "a ? b :",
        "item.x =",
        "item.x ?: .y",
        "item.x ?:",
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        "item[",
        "item[]",
        "item..x",
        "..",
        ".",
        "?.",
        "item?.",
        "#",
        "@",
        "@x",
        "&",
        "T(",
        "new ",
        "new",
        "item.?[",
        "item.![]",
        "item.^[",
        "item.$[]",
        "'abc",
        "1 +",
        "!",
        "!.x",
        "-.x",
        "(.x)",
        "item[.x]",
        "item.![.x]",
        "#fn(",
        "1e",
        "0x",
        "1.5.5",
        "1 2",
        "and 1",
        "#{",
        "#{item.iid}",
        "${x}",
        "{{x}}",
      })
  void aMalformedExpressionIsOneLoadErrorAtItsPlace(String expression) {
    List<String> problems = problems(parameter(expression));
    assertThat(problems).hasSize(1);
    assertThat(problems.get(0))
        .startsWith("m.yaml:7:6 parameters.x: ")
        .doesNotContain("Exception")
        .doesNotContain("must not be null");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "#{ .x }",
        "#{ {a:} }",
        "#{ { , } }",
        "#{item.a ?: .b}",
        "#{#default(.x, 1)}",
        "#{1e}",
        "#{",
        "a#{item.m(,)}b",
      })
  void aMalformedTemplateHoleIsOneLoadErrorAtItsPlace(String template) {
    List<String> problems = problems(query(template));
    assertThat(problems).hasSize(1);
    assertThat(problems.get(0))
        .startsWith("m.yaml:5:16 list.request.query.b: invalid ")
        .doesNotContain("Exception")
        .doesNotContain("must not be null");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{ .x } | invalid expression '{ .x }': an operand is missing: a '.' with no name before it,"
            + " or nothing after ',', ':', '?' or '('",
        "item.x ?: .y | invalid expression 'item.x ?: .y': '?:' has no value after it (write ?:"
            + " null for none; a '.' needs a name before it)",
        "1e | invalid expression '1e': it does not parse",
        "{{ item.source_branch }} | '{{ item.source_branch }}' is Go template syntax, which SpEL"
            + " reads as a list in a list: appset-mapper templates are #{...}; in parameters (and"
            + " every expression field) write the bare expression: item.source_branch",
        "{{ .branch }} | '{{ .branch }}' is Go template syntax, which SpEL reads as a list in a"
            + " list: appset-mapper templates are #{...}; in parameters (and every expression"
            + " field) write the bare expression: input.branch (declare 'branch' under input:, or"
            + " under vars: and read vars.branch for a deploy-time setting)",
        "${input.branch} | '${input.branch}' is shell syntax: appset-mapper templates are #{...};"
            + " in parameters (and every expression field) write the bare expression:"
            + " input.branch",
        "#{item.iid} | invalid expression '#{item.iid}': Unexpected token. Expected 'identifier'"
            + " but was 'lcurly({)' (parameters are expressions, not templates: write item.iid)",
        "item.draft = false | assignment is not allowed (compare with ==) (in 'item.draft ="
            + " false')",
      })
  void saysTheFix(String expression, String message) {
    assertThat(problems(parameter(expression)))
        .containsExactly("m.yaml:7:6 parameters.x: " + message);
  }

  @Test
  void aFilterInGoSyntaxIsRefused() {
    assertThat(
            problems(
                LIST + "  items: \"$[*]\"\nfilter: \"{{ .draft }}\"\nparameters:\n  x: item\n"))
        .containsExactly(
            "m.yaml:6:9 filter: '{{ .draft }}' is Go template syntax, which SpEL reads as a list"
                + " in a list: appset-mapper templates are #{...}; in parameters (and every"
                + " expression field) write the bare expression: input.draft (declare 'draft'"
                + " under input:, or under vars: and read vars.draft for a deploy-time setting)");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{{ .branch }} | '{{ .branch }}' is Go template syntax, which would be sent as written:"
            + " appset-mapper templates are #{...}: write #{input.branch} (declare 'branch' under"
            + " input:, or under vars: and read vars.branch for a deploy-time setting)",
        "pr-{{number}} | '{{number}}' is Go template syntax, which would be sent as written:"
            + " appset-mapper templates are #{...}: write #{input.number} (declare 'number' under"
            + " input:, or under vars: and read vars.number for a deploy-time setting)",
        "${input.branch} | '${input.branch}' is shell syntax, which would be sent as written:"
            + " appset-mapper templates are #{...}: write #{input.branch} (a literal ${ is written"
            + " #{'${'})",
      })
  void aTemplateInAnotherSyntaxIsRefusedInEveryRequestField(String template, String message) {
    String yaml =
        LIST
            + "    query: {b: "
            + Json.write(template)
            + "}\n    headers: {X-B: "
            + Json.write(template)
            + "}\n    body: {b: "
            + Json.write(template)
            + "}\n    method: POST\n  items: \"$[*]\"\nparameters:\n  x: item\n";
    assertThat(problems(yaml))
        .containsExactly(
            "m.yaml:5:16 list.request.query.b: " + message,
            "m.yaml:6:20 list.request.headers.X-B: " + message,
            "m.yaml:7:15 list.request.body.b: " + message);
  }

  @ParameterizedTest
  @ValueSource(strings = {"{{1,2},{3}}", "{{item.a, 1}}", "'{{ .x }}'", "'${x}' + item.a"})
  void legitNestedListsAndStringLiteralsStillLoad(String expression) throws Exception {
    MappingCompiler.compile(
        MappingParser.parse("m.yaml", parameter(expression)).get(0),
        new CompileOptions(Map.of(), n -> null, new Redactor()));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "https://a/#{applicationSetName ?: null}",
        "#{applicationSetName ?: NULL}-x",
        "x-#{applicationSetName ?: 'b'}",
        "#{applicationSetName ?: null}"
      })
  void anElvisWithAValueLoadsInATemplate(String template) throws Exception {
    MappingCompiler.compile(
        MappingParser.parse("m.yaml", query(template)).get(0),
        new CompileOptions(Map.of(), n -> null, new Redactor()));
  }

  @Test
  void aLiteralDollarBraceIsWrittenAsAStringInAHole() throws Exception {
    MappingCompiler.compile(
        MappingParser.parse("m.yaml", query("#{'${x}'}-{{1,2}}")).get(0),
        new CompileOptions(Map.of(), n -> null, new Redactor()));
  }

  @Test
  void anInvalidNameIsSaidWithTheFilesOtherErrors(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("m.yaml");
    Files.writeString(
        file,
        "name: my_mapping\nlist:\n  request: {url: \"https://api.example.com/a\"}\n"
            + "  items: \"$[*]\"\nfilter: \"item.draft = false\"\nparameters:\n  x: \"{ .x }\"\n");
    MappingLoader.Result result =
        MappingLoader.load(List.of(file), new CompileOptions(Map.of(), n -> null, new Redactor()));
    assertThat(result.mappings()).isEmpty();
    assertThat(result.problems())
        .extracting(p -> p.toString().replace(file.toString(), "m.yaml"))
        .containsExactly(
            "m.yaml:1:7 name: 'my_mapping' must be lowercase letters, digits and '-', at most 63"
                + " (an RFC 1123 label), e.g. pr-digests",
            "m.yaml:5:9 filter: assignment is not allowed (compare with ==) (in 'item.draft ="
                + " false')",
            "m.yaml:7:6 parameters.x: invalid expression '{ .x }': an operand is missing: a '.'"
                + " with no name before it, or nothing after ',', ':', '?' or '('");
  }

  @Test
  void aNameLongerThanALabelIsRefused(@TempDir Path dir) throws Exception {
    // The message says RFC 1123 label: 63 characters at most (70 loaded, an outsider saw).
    for (int length : new int[] {63, 64, 70}) {
      Path file = dir.resolve("n" + length + ".yaml");
      Files.writeString(file, "name: " + "a".repeat(length) + "\nparameters: {x: \"'1'\"}\n");
      MappingLoader.Result result =
          MappingLoader.load(
              List.of(file), new CompileOptions(Map.of(), n -> null, new Redactor()));
      if (length == 63) {
        assertThat(result.problems()).isEmpty();
      } else {
        assertThat(result.problems())
            .singleElement()
            .asString()
            .contains("must be lowercase letters, digits and '-', at most 63");
      }
    }
  }

  @Test
  void anInvalidNameIsSaidWithTheFilesOtherParseErrors(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("m.yaml");
    Files.writeString(file, "name: My\nparamters: {}\n");
    assertThat(
            MappingLoader.load(
                    List.of(file), new CompileOptions(Map.of(), n -> null, new Redactor()))
                .problems())
        .extracting(p -> p.message())
        .containsExactlyInAnyOrder(
            "'My' must be lowercase letters, digits and '-', at most 63 (an RFC 1123 label), e.g. pr-digests",
            "missing required key 'parameters'",
            "unknown key 'paramters'; did you mean 'parameters'?");
  }
}
