package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.cli.CliTest.Result;
import io.github.appsetmapper.server.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Another tool's template syntax, through {@code validate}: every form an author writes is caught
 * (Helm's actions with quoted strings, the shell's {@code $LABEL} and {@code $(LABEL)}), a {@code
 * $} in a real value is not, a suggested {@code #{...}} is one this place loads or the line says
 * there is none, and one mistake is one line while every real one is said.
 */
class TemplateSlipsValidateTest {
  @TempDir Path dir;

  private static final String REST = "  items: \"$[*]\"\nparameters:\n  x: item\n";

  private Result validate(String yaml, String... more) throws Exception {
    Path file = dir.resolve("m.yaml");
    Files.writeString(file, yaml);
    List<String> args = new ArrayList<>(List.of(more));
    args.add(0, "validate");
    args.add(file.toString());
    return CliTest.run(args.toArray(String[]::new));
  }

  private List<String> lines(Result result) {
    assertThat(result.exit()).as(result.out()).isEqualTo(1);
    return result
        .err()
        .lines()
        .map(l -> l.replace(dir.resolve("m.yaml").toString(), "m.yaml"))
        .toList();
  }

  private static String query(String value) {
    return "name: m\ninput:\n  branch: {}\nlist:\n  request:\n    url: \"https://api.example.com/a\"\n"
        + "    query: {b: '"
        + value
        + "'}\n"
        + REST;
  }

  @ParameterizedTest
  @CsvSource(
      delimiterString = "=>",
      value = {
        "{{ default \"main\" .branch }} => '{{ default \"main\" .branch }}' is Go template syntax,"
            + " which would be sent as written: appset-mapper templates are #{...}: write"
            + " #{input.branch ?: 'main'}",
        "pr-$(LABEL) => '$(LABEL)' is shell syntax, which would be sent as written: appset-mapper"
            + " templates are #{...}: write #{vars.LABEL} (declare 'LABEL' under vars: and give it"
            + " with --var LABEL=..., or under input: and read input.LABEL; declared:"
            + " input.branch), or #{'$(LABEL)'} to send it as written",
        "{{- .branch -}} => '{{- .branch -}}' is Go template syntax, which would be sent as written:"
            + " appset-mapper templates are #{...}: write #{input.branch}",
        "{{ if .branch }}x{{ end }} => '{{ if .branch }}' is Go template syntax, which would be sent"
            + " as written: appset-mapper templates are #{...}: there is no direct rewrite: Go's"
            + " 'if' action has no counterpart; write one SpEL expression in #{...} (a condition is"
            + " cond ? 'a' : 'b')",
        "{{ .branch | lower }} => '{{ .branch | lower }}' is Go template syntax, which would be sent"
            + " as written: appset-mapper templates are #{...}: there is no direct rewrite: Go's"
            + " pipe '| lower' has no counterpart; write the SpEL expression in #{...} (a method"
            + " call on the value, e.g. .toLowerCase())",
        "${{ github.sha }} => '${{ github.sha }}' is GitHub Actions syntax, which would be sent as"
            + " written: appset-mapper templates are #{...}: there is no direct rewrite: GitHub"
            + " Actions' 'github' context does not exist here",
        "${{ secrets.TOKEN }} => '${{ secrets.TOKEN }}' is GitHub Actions syntax, which would be sent"
            + " as written: appset-mapper templates are #{...}: write #{secret.TOKEN} (declare"
            + " 'TOKEN' under secrets:)",
        "$response.ok => '$response.ok' is shell-like syntax, which would be sent as written:"
            + " appset-mapper templates are #{...}: there is no direct rewrite: 'response' can be"
            + " used only in an enrich 'value' or a 'failWhen'",
        "$item.sku => '$item.sku' is shell-like syntax, which would be sent as written:"
            + " appset-mapper templates are #{...}: there is no direct rewrite: 'item' does not"
            + " exist in the list request",
        "{{number}} => '{{number}}' is Go template syntax, which would be sent as written:"
            + " appset-mapper templates are #{...}: write #{input.number} (declare 'number' under"
            + " input:, or under vars: and read vars.number for a deploy-time setting; declared:"
            + " input.branch)",
      })
  void aSlipInATemplateIsCaughtWithARewriteThatLoadsOrNone(String written, String message)
      throws Exception {
    assertThat(lines(validate(query(written))))
        .containsExactly("m.yaml:7:16 list.request.query.b: " + message);
  }

  /**
   * The shell's {@code $NAME} is a slip only where the mapping declares the name: {@code $LATEST}
   * (AWS Lambda's version), a GraphQL query's {@code $ID}, a Cypher {@code $SHA} and {@code $USD}
   * are text an API reads, and loaded in every version before the check.
   */
  @Test
  void aCapitalNameAfterADollarIsASlipOnlyWhereTheMappingDeclaresIt() throws Exception {
    for (String text :
        List.of("$LATEST", "query($ID: ID!) { node(id: $ID) }", "n.sha = $SHA", "$USD")) {
      Result loaded = validate(query(text.replace("'", "''")));
      assertThat(loaded.err()).as(text).isEmpty();
    }
    List<String> refused =
        lines(
            validate(
                query("$LABEL").replace("input:\n", "vars:\n  LABEL: {default: a}\ninput:\n")));
    assertThat(refused)
        .singleElement()
        .asString()
        .contains(
            "'$LABEL' is shell syntax", "write #{vars.LABEL}", "#{'$LABEL'} to send it as written");
  }

  /**
   * What a line suggests loads: each slip, where the mapping declares what it names, is replaced by
   * the {@code #{...}} its line says, and the file is then valid.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "{{ default \"main\" .branch }}",
        "{{- .branch -}}",
        "$LABEL",
        "$(LABEL)",
        "${LABEL}",
        "${{ secrets.TOKEN }}",
        "${{ vars.LABEL }}",
        "$input.branch",
      })
  void theSuggestedRewriteLoads(String written) throws Exception {
    String yaml =
        query(written)
            .replace(
                "input:\n", "vars:\n  LABEL: {default: a}\nsecrets:\n  TOKEN: {env: T}\ninput:\n");
    List<String> refused = lines(validate(yaml));
    assertThat(refused).hasSize(1);
    Matcher suggested = Pattern.compile("write (#\\{.*?})(?: \\(|,|$)").matcher(refused.get(0));
    assertThat(suggested.find()).as(refused.get(0)).isTrue();
    Result fixed = validate(yaml.replace(written, suggested.group(1).replace("'", "''")));
    assertThat(fixed.err()).isEmpty();
    assertThat(fixed.exit()).isZero();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{{ default \"main\" .branch }} | '{{ default \"main\" .branch }}' is Go template syntax,"
            + " which SpEL reads as a list in a list: appset-mapper templates are #{...}; in"
            + " parameters (and every expression field) write the bare expression: input.branch ?:"
            + " 'main'",
        "$item.sku | '$item.sku' is shell-like syntax: appset-mapper templates are #{...}; in"
            + " parameters (and every expression field) write the bare expression: item.sku",
        "$(LABEL) | '$(LABEL)' is shell syntax: appset-mapper templates are #{...}; in"
            + " parameters (and every expression field) write the bare expression: vars.LABEL"
            + " (declare 'LABEL' under vars: and give it with --var LABEL=..., or under input: and"
            + " read input.LABEL; declared: input.branch)",
        "${{ secrets.X }} | '${{ secrets.X }}' is GitHub Actions syntax: appset-mapper"
            + " templates are #{...}; there is no direct rewrite: 'secret' can be used only inside"
            + " a request (url, query, headers, body, auth)",
      })
  void aSlipInAnExpressionIsOneLineWithItsRewrite(String written, String message) throws Exception {
    String yaml = query("x").replace("  x: item\n", "  x: " + Json.write(written) + "\n");
    assertThat(lines(validate(yaml))).containsExactly("m.yaml:10:6 parameters.x: " + message);
  }

  @Test
  void aDollarInARealValueStillLoads() throws Exception {
    Result result =
        validate(
            "name: m\nlist:\n  request:\n    url: \"https://api.example.com/a\"\n"
                + "    query: {price: \"$5\", re: \"^v[0-9]+$\", p: \"$.items\", d: \"5$\","
                + " u: \"US$ 10\", f: \"$filter\", o: \"$orderby\", e: \"a$b\"}\n"
                + "    method: POST\n"
                + "    body: {total: {$sum: \"$$item.price\"}, root: \"$$ROOT\", r: \"\\\\$(x)\"}\n"
                + REST);
    assertThat(result.err()).isEmpty();
    assertThat(result.exit()).isZero();
  }

  @Test
  void anInputEnumValueInShellSyntaxIsRefused() throws Exception {
    assertThat(
            lines(
                validate(
                    "name: m\ninput:\n  tag: {enum: [\"${BUILD_TAG}\", a]}\n"
                        + "list:\n  request:\n    url: \"https://api.example.com/a\"\n"
                        + REST)))
        .containsExactly(
            "m.yaml:3:8 input.tag: '${BUILD_TAG}' is shell syntax, and this text is taken as"
                + " written (it is no template): write the value itself");
  }

  @Test
  void aVarsDefaultInGoSyntaxIsRefusedEvenWhereVarOverridesItAndSaysBothFixes() throws Exception {
    String yaml =
        "name: m\nvars:\n  id: {default: \"{{.ID}}\"}\nlist:\n  request:\n"
            + "    url: \"https://api.example.com/#{vars.id}\"\n"
            + REST;
    String line =
        "m.yaml:3:7 vars.id: '{{.ID}}' is Go template syntax, and this text is taken as written"
            + " (it is no template): write the value itself, or leave the default out and give"
            + " the value at deploy time with --var id=... (a default is shipped as written, even"
            + " where --var overrides it)";
    assertThat(lines(validate(yaml, "--var", "id=5"))).containsExactly(line);
    assertThat(lines(validate(yaml))).containsExactly(line);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "list: \"x\"\\nparameters:\\n  x: item\\n  y: item.a | m.yaml:2:7 list: must be a mapping",
        "input: [a]\\nparameters:\\n  x: input.a\\n  y: \"'#{input.b}'\" | m.yaml:2:8 input: must be"
            + " a mapping",
        "vars: [a]\\nparameters:\\n  x: vars.a | m.yaml:2:7 vars: must be a mapping",
        "enrich: [a]\\nparameters:\\n  x: a.b | m.yaml:2:9 enrich: must be a mapping",
      })
  void aMisshapedBlockIsOneLineNotOneMorePerReader(String yaml, String line) throws Exception {
    assertThat(lines(validate("name: m\n" + yaml.replace("\\n", "\n") + "\n")))
        .containsExactly(line);
  }

  /**
   * Entries of the wrong shape inside {@code input:}, {@code vars:}, {@code enrich:} and {@code
   * let:} are one line each, at each entry's line, and what reads them (a URL, a query, a filter, a
   * parameter) adds none: the entry is declared, in the wrong shape.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "input:\\n  branch: main\\n  owner: 3\\nvars:\\n  api: https://x\\n | m.yaml:3:11 input.branch:"
            + " must be a mapping ~ m.yaml:4:10 input.owner: must be a mapping ~ m.yaml:6:8 vars.api:"
            + " must be a mapping",
        "input:\\n  branch: {type: strin}\\n  owner: {tpye: string}\\nvars:\\n  api: {default: a}\\n"
            + " | m.yaml:3:18 input.branch.type: must be one of string, number, boolean, list, map,"
            + " any, not 'strin' ~ m.yaml:4:11 input.owner.tpye: unknown key 'tpye'; did you mean"
            + " 'type'?",
        "input:\\n  branch: main\\n  owner: {}\\nvars:\\n  api: {default: a}\\n | m.yaml:3:11"
            + " input.branch: must be a mapping",
      })
  void misshapedEntriesAreOneLineEachAndTheirReadersNone(String blocks, String said)
      throws Exception {
    String yaml =
        "name: m\n"
            + blocks.replace("\\n", "\n")
            + "list:\n  request:\n    url: \"#{vars.api}/items\"\n"
            + "    query: {q: \"#{input.branch}\", o: \"#{input.owner}\"}\n  items: \"$[*]\"\n"
            + "filter: \"input.branch != null\"\n"
            + "parameters: {a: item.id, b: input.branch, c: vars.api, d: input.owner}\n";
    assertThat(lines(validate(yaml))).containsExactly(said.split(" ~ "));
  }

  @Test
  void aMisshapedEnrichOrAFailedLetIsOneLineNotOneMorePerReader() throws Exception {
    String rest =
        "list:\n  request:\n    url: \"https://x/items\"\n  items: \"$[*]\"\n"
            + "filter: \"st == 1 and x != null\"\nparameters: {a: st, b: \"st + 1\", c: x}\n";
    assertThat(
            lines(
                validate(
                    "name: m\ninput: {branch: {}}\nenrich:\n  st: \"x\"\n  u: 3\nlet:\n  x: item\n"
                        + rest)))
        .containsExactly(
            "m.yaml:4:7 enrich.st: must be a mapping", "m.yaml:5:6 enrich.u: must be a mapping");
    assertThat(
            lines(
                validate(
                    "name: m\ninput: {branch: {}}\nenrich:\n  st:\n    request: {url:"
                        + " \"https://x/s\"}\n    value: response.body\n"
                        + "let:\n  x: \"{{ .branch }}\"\n"
                        + rest)))
        .singleElement()
        .asString()
        .startsWith("m.yaml:8:6 let.x: '{{ .branch }}' is Go template syntax");
  }

  @Test
  void aMisshapedBlockStillLetsTheOtherMistakesBeSaid() throws Exception {
    assertThat(lines(validate("name: m\ninput: [a]\nparameters:\n  x: nope\n  y: \"{{ .a }}\"\n")))
        .containsExactly(
            "m.yaml:2:8 input: must be a mapping",
            "m.yaml:4:6 parameters.x: unknown name 'nope'; known: applicationSetName, input, vars",
            "m.yaml:5:6 parameters.y: '{{ .a }}' is Go template syntax, which SpEL reads as a list"
                + " in a list: appset-mapper templates are #{...}; in parameters (and every"
                + " expression field) write the bare expression: input.a (declare 'a' under input:,"
                + " or under vars: and read vars.a for a deploy-time setting)");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "parameters:\\n  x: \"{{ .x }}\"\\n | 3:6 parameters.x: '{{ .x }}'",
        "list: 3\\nparameters: {x: \"'a'\"}\\n | 2:7 list: must be a mapping",
      })
  void aNameTwoFilesGiveIsSaidWhenTheFirstCopyFails(String first, String itsLine) throws Exception {
    Path a = dir.resolve("a.yaml");
    Path b = dir.resolve("b.yaml");
    Files.writeString(a, "name: m\n" + first.replace("\\n", "\n"));
    Files.writeString(b, "name: m\nparameters:\n  x: \"'b'\"\n");
    Result result = CliTest.run("validate", a.toString(), b.toString());
    assertThat(result.exit()).isEqualTo(1);
    List<String> lines = result.err().lines().toList();
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).startsWith(a + ":" + itsLine);
    assertThat(lines.get(1))
        .isEqualTo(b + ":1:7 name: duplicate mapping name 'm' (also in " + a + ")");
  }

  @Test
  void aNameTwiceInAFileThatDidNotParseIsSaid() throws Exception {
    assertThat(
            lines(
                validate(
                    "name: m\nlist: 3\nparameters: {x: \"'a'\"}\n---\n"
                        + "name: m\nparameters: {x: \"'b'\"}\n")))
        .containsExactly(
            "m.yaml:2:7 list: must be a mapping",
            "m.yaml:5:7 name: duplicate mapping name 'm' in this file");
  }
}
