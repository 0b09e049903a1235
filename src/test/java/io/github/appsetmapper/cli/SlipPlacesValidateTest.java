package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.cli.CliTest.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every place a slip is said, through {@code validate}: what its line suggests is pasted where the
 * slip was (with what the line says to declare) and the file then loads, or the line says there is
 * no direct rewrite and why. A URL's host, the Host header and a token's settings read fewer names
 * than a URL's path; a let and an enrich result are read by their own names.
 */
class SlipPlacesValidateTest {
  @TempDir Path dir;

  /** A mapping with every block a place needs; {@code SLIP} is where the slip is written. */
  private static final String BASE =
      """
      name: m
      input:
        branch: {}
      vars:
        host: {default: h.example.com}
        dir: {default: /tmp}
      secrets:
        cs: {env: CS}
        pk: {env: PK}
        CS: {env: CS_UPPER}
      list:
        request:
          url: "https://api.example.com/a"
      REQUEST
        items: "$[*]"
      let:
        slug: "item.name"
      ENRICH
      parameters:
        x: item
      """;

  private Result validate(String yaml) throws Exception {
    Path file = dir.resolve("m.yaml");
    Files.writeString(file, yaml);
    return CliTest.run("validate", file.toString());
  }

  /** {@code BASE} with the list request's lines (unindented), an enrich block, the last block. */
  private static String mapping(String request, String enrich, String rest) {
    String lines =
        request.isEmpty()
            ? ""
            : "    " + request.replace("\\n", "\n").replace("\n", "\n    ") + "\n";
    return BASE.replace("REQUEST\n", lines)
        .replace("ENRICH\n", enrich.isEmpty() ? "" : enrich.replace("\\n", "\n") + "\n")
        .replace("  x: item\n", rest.isEmpty() ? "  x: item\n" : rest.replace("\\n", "\n") + "\n");
  }

  private static final Pattern TEMPLATE = Pattern.compile("write (#\\{.*?})(?: \\(|,|$)");
  private static final Pattern EXPRESSION =
      Pattern.compile("write the bare expression: (.*?)(?: \\(declare|$)");
  private static final Pattern DECLARE = Pattern.compile("declare '(\\w+)' under (vars|input):");

  /**
   * The slip (in a request line, an enrich block, or the mapping's end) is said in one line whose
   * suggestion, pasted in its place with what it says to declare, loads.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = ";;",
      nullValues = "-",
      value = {
        "url path ;; {{ .branch }} ;; - ;; - ;; url: \"https://api.example.com/a/SLIP\"",
        "url host, Helm ;; {{ .Values.host }} ;; - ;; - ;; url: \"https://SLIP/api\"",
        "url host, undeclared ;; {{ .Values.api }} ;; - ;; - ;; url: \"SLIP/items\"",
        "url host, lowercase ;; $host ;; - ;; - ;; url: \"https://SLIP/api\"",
        "url query ;; $branch ;; - ;; - ;; url: \"https://api.example.com/a?b=SLIP\"",
        "query value ;; $branch ;; query: {b: \"SLIP\"} ;; - ;; -",
        "query value, piped default ;; {{ .ref | default \"main\" }} ;; query: {b: \"SLIP\"} ;; -"
            + " ;; -",
        "header value ;; {{ .branch }} ;; headers: {X-B: \"SLIP\"} ;; - ;; -",
        "header value, lowercase ;; $branch ;; headers: {X-B: \"SLIP\"} ;; - ;; -",
        "query value, after a letter ;; x$branch ;; query: {b: \"SLIP\"} ;; - ;; -",
        "query value, $input after a letter ;; x$input.branch ;; query: {b: \"SLIP\"} ;; - ;; -",
        "header value, a secret ;; Token $CS ;; headers: {X-Tok: \"SLIP\"} ;; - ;; -",
        "header value, a secret lowercase ;; Token $cs ;; headers: {X-Tok: \"SLIP\"} ;; - ;; -",
        "Host header ;; {{ .Values.host }} ;; headers: {Host: \"SLIP\"} ;; - ;; -",
        "body value ;; {{ .branch }} ;; method: POST\\nbody: {b: \"SLIP\"} ;; - ;; -",
        "basic username ;; {{ .user }} ;; auth: {basic: {username: \"SLIP\", password: {secret:"
            + " cs}}} ;; - ;; -",
        "oauth2 tokenUrl ;; {{ .Values.tokenUrl }} ;; auth: {oauth2: {tokenUrl: \"SLIP\","
            + " clientId: x, clientSecret: {secret: cs}}} ;; - ;; -",
        "oauth2 clientId ;; ${CLIENT_ID} ;; auth: {oauth2: {tokenUrl: \"https://t/x\", clientId:"
            + " \"SLIP\", clientSecret: {secret: cs}}} ;; - ;; -",
        "oauth2 params ;; ${AUDIENCE} ;; auth: {oauth2: {tokenUrl: \"https://t/x\", clientId: x,"
            + " clientSecret: {secret: cs}, params: {audience: \"SLIP\"}}} ;; - ;; -",
        "githubApp apiUrl ;; {{ .Values.api }} ;; auth: {githubApp: {appId: \"1\","
            + " installationId: \"2\", privateKey: {secret: pk}, apiUrl: \"https://SLIP/x\"}} ;; -"
            + " ;; -",
        "login url ;; {{ .Values.login }} ;; auth: {login: {request: {url: \"https://SLIP/l\"},"
            + " token: \"$.t\"}} ;; - ;; -",
        "login body ;; ${USER} ;; auth: {login: {request: {url: \"https://a/l\", method: POST,"
            + " body: {u: \"SLIP\"}}, token: \"$.t\"}} ;; - ;; -",
        "secret file ;; {{ .Values.dir }} ;; - ;; - ;; secrets:\\n  tok: {file: \"SLIP/token\"}",
        "enrich url, a let ;; {{ .slug }} ;; - ;; enrich:\\n  e:\\n    request: {url:"
            + " \"https://api.example.com/s/SLIP\"}\\n    value: \"response.body\" ;; -",
        "enrich url host, an item ;; {{ .item.host }} ;; - ;; enrich:\\n  e:\\n    request: {url:"
            + " \"https://SLIP/s\"}\\n    value: \"response.body\" ;; -",
        "enrich value, a let ;; {{ .slug }} ;; - ;; enrich:\\n  e:\\n    request: {url:"
            + " \"https://a/s\"}\\n    value: \"SLIP\" ;; -",
        "let value ;; {{ .branch }} ;; - ;; - ;; let:\\n  slug: \"SLIP\"",
        "let value, an earlier let ;; {{ .slug }} ;; - ;; - ;; let:\\n  slug: item.name\\n  b:"
            + " \"SLIP\"",
        "parameter, a let ;; {{ .slug }} ;; - ;; - ;; parameters:\\n  x: \"SLIP\"",
        "filter ;; ${LIMIT} ;; - ;; - ;; filter: \"item.n < SLIP\"\\nparameters:\\n  x: item",
      })
  void theSuggestionLoadsWhereItWasSaid(
      String place, String slip, String request, String enrich, String rest) throws Exception {
    // Every SLIP stands in a double-quoted YAML scalar.
    String yaml = place(request, enrich, rest).replace("SLIP", quoted(slip));
    Result refused = validate(yaml);
    List<String> lines = refused.err().lines().toList();
    assertThat(lines).as(place).hasSize(1);
    String line = lines.get(0);
    assertThat(line).as(place).doesNotContain("no direct rewrite");
    Matcher template = TEMPLATE.matcher(line);
    Matcher expression = EXPRESSION.matcher(line);
    String fix;
    if (line.contains("write the bare expression: ")) {
      assertThat(expression.find()).as(line).isTrue();
      fix = expression.group(1);
    } else {
      assertThat(template.find()).as(line).isTrue();
      fix = template.group(1);
    }
    String fixed = yaml.replace(quoted(slip), quoted(fix));
    Matcher declare = DECLARE.matcher(line);
    if (declare.find()) {
      fixed =
          declare.group(2).equals("vars")
              ? fixed.replace("vars:\n", "vars:\n  " + declare.group(1) + ": {default: v}\n")
              : fixed.replace("input:\n", "input:\n  " + declare.group(1) + ": {}\n");
    }
    Result loaded = validate(fixed);
    assertThat(loaded.err()).as(place + ": " + line + "\n" + fixed).isEmpty();
    assertThat(loaded.exit()).isZero();
  }

  private static String quoted(String text) {
    return text.replace("\\", "\\\\").replace("\"", "\\\"");
  }

  /** A place in the mapping: a request line, an enrich block, or a top-level block to replace. */
  private static String place(String request, String enrich, String rest) {
    String yaml = mapping(request == null ? "" : request, enrich == null ? "" : enrich, "");
    if (rest == null) {
      return yaml;
    }
    String block = rest.replace("\\n", "\n");
    if (block.startsWith("url:")) {
      return yaml.replace("url: \"https://api.example.com/a\"", block);
    }
    if (block.startsWith("secrets:")) {
      return yaml.replace("secrets:\n", block + "\n");
    }
    if (block.startsWith("let:")) {
      return yaml.replace("let:\n  slug: \"item.name\"\n", block + "\n");
    }
    return yaml.replace("parameters:\n  x: item\n", block + "\n");
  }

  /**
   * Where nothing loads that the slip could become, the line says so, with why: a URL's scheme and
   * host and the Host header never read input, a token's settings read only vars and secrets.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = ";;",
      nullValues = "-",
      value = {
        "https://{{ .branch }}/api ;; - ;; the scheme and host of a URL may come only from vars or"
            + " upstream data, never from input",
        "https://$branch/api ;; - ;; the scheme and host of a URL may come only from vars or upstream"
            + " data, never from input",
        "https://api.example.com/a ;; headers: {Host: \"{{ .branch }}\"} ;; the Host header picks the"
            + " server as the URL's host does: it may come only from literal text and vars",
        "https://api.example.com/a ;; auth: {oauth2: {tokenUrl: \"https://t/{{ .branch }}\","
            + " clientId: x, clientSecret: {secret: cs}}} ;; 'input' cannot be read here: a token is"
            + " shared by every call",
      })
  void whereNoRewriteLoadsTheLineSaysWhy(String url, String more, String why) throws Exception {
    String yaml =
        mapping(more == null ? "" : more, "", "")
            .replace("url: \"https://api.example.com/a\"", "url: \"" + url + "\"");
    List<String> lines = validate(yaml).err().lines().toList();
    assertThat(lines).singleElement().asString().contains("there is no direct rewrite: " + why);
  }

  /**
   * A {@code $name} in any case naming a declared input, var or secret is a slip in a URL, a query
   * value and a header (it was sent as written); in a body it is text, as GraphQL's variables are
   * written, and so is a {@code $name} the mapping declares nothing of, and OData's words.
   */
  @Test
  void aLowercaseDollarNameIsASlipOutsideABody() throws Exception {
    for (String request :
        List.of(
            "query: {branch: \"$branch\"}",
            "headers: {X-Branch: \"$branch\"}",
            "headers: {X-Host: \"$host\"}")) {
      assertThat(validate(mapping(request, "", "")).err().lines().toList())
          .as(request)
          .singleElement()
          .asString()
          .contains("is shell syntax, which would be sent as written");
    }
    String path =
        mapping("", "", "")
            .replace("https://api.example.com/a", "https://api.example.com/repos/$branch/pulls");
    assertThat(validate(path).err()).contains("'$branch' is shell syntax", "write #{input.branch}");
  }

  /**
   * A {@code $NAME} naming a declared secret is that secret where the place reads secrets: it was
   * suggested as {@code #{vars.NAME}}, which does not load without a var of that name.
   */
  @Test
  void aDollarNameOfADeclaredSecretIsSuggestedAsTheSecret() throws Exception {
    for (String slip : List.of("Token $CS", "Token $cs")) {
      String name = slip.substring(slip.indexOf('$') + 1);
      List<String> lines =
          validate(mapping("headers: {X-Tok: \"" + slip + "\"}", "", "")).err().lines().toList();
      assertThat(lines)
          .as(slip)
          .singleElement()
          .asString()
          .contains("write #{secret." + name + "}")
          .doesNotContain("declare '");
    }
  }

  /** Go's {@code .slug} where {@code slug} is a let is that let: nothing is to be declared. */
  @Test
  void aLetOrAnEnrichResultIsSuggestedByItsOwnName() throws Exception {
    String yaml =
        mapping(
            "",
            "enrich:\n  e:\n    request: {url: \"https://a/s/{{ .slug }}\"}\n"
                + "    value: response.body\n  f:\n    request: {url: \"https://a/f/{{ .e.id }}\"}\n"
                + "    value: response.body",
            "");
    assertThat(validate(yaml).err().lines().toList())
        .hasSize(2)
        .anySatisfy(
            l ->
                assertThat(l)
                    .endsWith(
                        "e.request.url: '{{ .slug }}' is Go template"
                            + " syntax, which would be sent as written: appset-mapper templates are #{...}: write"
                            + " #{slug}"))
        .anySatisfy(l -> assertThat(l).endsWith("write #{e.id}"));
  }

  @Test
  void aGraphqlBodyWithADollarVariableBesideADeclaredInputLoads() throws Exception {
    String yaml =
        mapping(
            "method: POST\n"
                + "body:\n"
                + "  query: \"query($branch: String!) { repo { ref(name: $branch) { id } } }\"\n"
                + "  variables: {branch: \"#{input.branch}\"}",
            "",
            "");
    Result result = validate(yaml);
    assertThat(result.err()).isEmpty();
    assertThat(result.exit()).isZero();
    String get =
        mapping(
            "query: {query: \"query($branch: String!) { ref(name: $branch) { id } }\"}", "", "");
    assertThat(validate(get).err()).isEmpty();
    String whole =
        mapping(
            "method: POST\nbody: \"{\\\"query\\\": \\\"query($branch: String!) {x}\\\"}\"", "", "");
    assertThat(validate(whole).err()).isEmpty();
  }

  @Test
  void odataWordsAndUndeclaredNamesStillLoad() throws Exception {
    String yaml =
        mapping("query: {f: \"$filter\", n: \"$name\"}", "", "")
            .replace("https://api.example.com/a", "https://api.example.com/odata/Items/$count")
            .replace("input:\n", "input:\n  count: {}\n  filter: {}\n  top: {}\n")
            .replace("x: item", "x: item\n  y: \"input.count + input.filter + input.top\"");
    Result result = validate(yaml.replace("query: {", "query: {t: \"$top=3\", g: \"a $top= b\", "));
    assertThat(result.err()).isEmpty();
    assertThat(result.exit()).isZero();
  }
}
