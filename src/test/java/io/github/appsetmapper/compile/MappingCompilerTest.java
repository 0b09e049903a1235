package io.github.appsetmapper.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.github.appsetmapper.config.MappingException;
import io.github.appsetmapper.config.MappingParser;
import io.github.appsetmapper.config.MappingSpec;
import io.github.appsetmapper.config.Problem;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.secret.Redactor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class MappingCompilerTest {

  private static final CompileOptions NO_ENVIRONMENT =
      new CompileOptions(Map.of(), name -> null, new Redactor());

  /** Every method name the load-time check accepts, as its messages list them. */
  private static final String ALLOWED_METHODS =
      "charAt, compareTo, concat, contains, containsAll, containsKey, containsValue, doubleValue,"
          + " endsWith, equals, equalsIgnoreCase, get, getOrDefault, indexOf, intValue, isBlank,"
          + " isEmpty, keySet, lastIndexOf, length, longValue, matches, replace, replaceAll,"
          + " replaceFirst, size, split, startsWith, strip, subList, substring, toLowerCase,"
          + " toString, toUpperCase, trim, values";

  private static CompiledMapping compile(String yaml) throws MappingException {
    return compile(yaml, NO_ENVIRONMENT);
  }

  private static CompiledMapping compile(String yaml, CompileOptions options)
      throws MappingException {
    List<MappingSpec> specs = MappingParser.parse("m.yaml", yaml);
    assertThat(specs).hasSize(1);
    return MappingCompiler.compile(specs.get(0), options);
  }

  /** The problems of a mapping that must not compile, as {@code file:line:column path: msg}. */
  private static List<String> problems(String yaml) {
    MappingException e = catchThrowableOfType(MappingException.class, () -> compile(yaml));
    assertThat(e).as("the mapping should have been refused").isNotNull();
    return e.problems().stream().map(Problem::toString).toList();
  }

  private static String yamlString(String text) {
    return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }

  /** A mapping with a list whose only parameter {@code x} (line 9, column 6) is the expression. */
  private static String withParameter(String expression) {
    return """
        name: m
        input:
          branch: {}
          label: {}
        list:
          request: {url: "https://api.example.com/pulls"}
          items: "$[*]"
        parameters:
          x: %s
        """
        .formatted(yamlString(expression));
  }

  private static Path write(Path dir, String name, String content) throws IOException {
    Path file = dir.resolve(name);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content, StandardCharsets.UTF_8);
    return file;
  }

  private static String mapping(String name) {
    return "name: " + name + "\nparameters:\n  x: \"'a'\"\n";
  }

  @Nested
  class Names {

    @Test
    void anUndeclaredInputIsRefusedWithASuggestion() {
      assertThat(
              problems(
                  """
                  name: m
                  input:
                    branch: {required: true}
                  parameters:
                    x: input.brnch
                  """))
          .containsExactly(
              "m.yaml:5:6 parameters.x: input 'brnch' is not declared under input; did you mean"
                  + " 'branch'?");
    }

    @Test
    void anyInputMayBeReadWhenInputAdditionalIsSet() throws MappingException {
      assertThat(
              compile(
                      """
                      name: m
                      inputAdditional: true
                      parameters:
                        x: input.anything
                      """)
                  .parameters())
          .containsOnlyKeys("x");
    }

    @Test
    void anUndeclaredSecretIsRefused() {
      assertThat(
              problems(
                  """
                  name: m
                  secrets:
                    github: {env: GITHUB_TOKEN}
                  list:
                    request:
                      url: https://api.github.com/user/repos
                      headers: {Authorization: "Bearer #{secret.githb}", X-Other: "#{secret.gh}"}
                    items: "$[*]"
                  parameters:
                    x: item.name
                  """))
          .containsExactly(
              "m.yaml:7:30 list.request.headers.Authorization: secret 'githb' is not declared"
                  + " under secrets; did you mean 'github'?",
              "m.yaml:7:65 list.request.headers.X-Other: secret 'gh' is not declared under"
                  + " secrets; known: github");
    }

    @Test
    void anAuthSecretMustBeDeclared() {
      assertThat(
              problems(
                  """
                  name: m
                  list:
                    request:
                      url: https://api.github.com/user/repos
                      auth: {bearer: {secret: github}}
                    items: "$[*]"
                  parameters:
                    x: item.name
                  """))
          .containsExactly(
              "m.yaml:5:20 list.request.auth.bearer: secret 'github' is not declared under"
                  + " secrets");
    }

    @Test
    void secretIsRefusedInParametersAndFilter() {
      assertThat(
              problems(
                  """
                  name: m
                  secrets:
                    github: {env: GITHUB_TOKEN}
                  filter: "secret.github != null"
                  parameters:
                    x: secret.github
                  """))
          .containsExactly(
              "m.yaml:4:9 filter: 'secret' can be used only inside a request (url, query,"
                  + " headers, body, auth)",
              "m.yaml:6:6 parameters.x: 'secret' can be used only inside a request (url, query,"
                  + " headers, body, auth)");
    }

    @Test
    void secretIsRefusedInAValueAndAFailWhen() {
      assertThat(
              problems(
                  """
                  name: m
                  secrets:
                    github: {env: GITHUB_TOKEN}
                  enrich:
                    me:
                      request:
                        url: https://api.github.com/user
                        failWhen: "secret.github == ''"
                      value: secret.github
                  parameters:
                    x: me
                  """))
          .containsExactly(
              "m.yaml:8:17 enrich.me.request.failWhen: 'secret' can be used only inside a request"
                  + " (url, query, headers, body, auth)",
              "m.yaml:9:12 enrich.me.value: 'secret' can be used only inside a request (url,"
                  + " query, headers, body, auth)");
    }

    @Test
    void secretIsAllowedInsideARequest() throws MappingException {
      CompiledMapping mapping =
          compile(
              """
              name: m
              secrets:
                github: {env: GITHUB_TOKEN}
              list:
                request:
                  url: https://api.github.com/user/repos
                  query: {token: "#{secret.github}"}
                  headers: {Authorization: "Bearer #{secret.github}"}
                  method: POST
                  body: {token: "#{secret.github}"}
                items: "$[*]"
              parameters:
                x: item.name
              """);

      assertThat(mapping.list().request().headers().get("Authorization").readsSecret()).isTrue();
    }

    @Test
    void responseIsRefusedOutsideValueAndFailWhen() {
      assertThat(
              problems(
                  """
                  name: m
                  vars:
                    api: {default: "https://api.example.com"}
                  enrich:
                    e:
                      request: {url: "#{vars.api}/#{response.status}"}
                  parameters:
                    x: response.status
                  """))
          .containsExactly(
              "m.yaml:6:20 enrich.e.request.url: 'response' can be used only in an enrich 'value'"
                  + " or a 'failWhen'",
              "m.yaml:8:6 parameters.x: 'response' can be used only in an enrich 'value' or a"
                  + " 'failWhen'");
    }

    @Test
    void responseIsAllowedInValueAndFailWhen() throws MappingException {
      CompiledMapping mapping =
          compile(
              """
              name: m
              enrich:
                digest:
                  request:
                    url: https://registry.example.com/v2/a/manifests/main
                    failWhen: "response.body?.errors != null"
                  value: "response.headers['Docker-Content-Digest']"
              parameters:
                x: digest
              """);

      assertThat(mapping.enrich())
          .singleElement()
          .extracting(CompiledEnrich::name)
          .isEqualTo("digest");
    }

    @Test
    void anEnrichNameCannotBeUsedBeforeItIsEnriched() {
      assertThat(
              problems(
                  """
                  name: m
                  vars:
                    api: {default: "https://api.example.com"}
                  enrich:
                    a:
                      request: {url: "#{vars.api}/#{b}"}
                    b:
                      request: {url: "#{vars.api}/b"}
                  parameters:
                    x: a
                  """))
          .containsExactly(
              "m.yaml:6:20 enrich.a.request.url: 'b' is enriched after this step; enrich runs in"
                  + " order");
    }

    @Test
    void aLaterEnrichMayUseAnEarlierOne() throws MappingException {
      assertThat(
              compile(
                      """
                      name: m
                      enrich:
                        repo:
                          request: {url: "https://api.example.com/repo"}
                        branch:
                          request: {url: "https://api.example.com/repos/#{repo.id}/branch"}
                      parameters:
                        id: repo.id
                        sha: branch.sha
                      """)
                  .enrich())
          .extracting(CompiledEnrich::name)
          .containsExactly("repo", "branch");
    }

    @Test
    void aReservedEnrichNameIsRefused() {
      assertThat(
              problems(
                  """
                  name: m
                  enrich:
                    input:
                      request: {url: "https://api.example.com/a"}
                  parameters:
                    x: "'a'"
                  """))
          .containsExactly(
              "m.yaml:4:5 enrich.input: 'input' is a reserved name; choose another enrich name");
    }

    @Test
    void anUnknownNameGetsASuggestionOrTheKnownNames() {
      assertThat(
              problems(
                  """
                  name: m
                  list:
                    request: {url: "https://api.example.com/a"}
                    items: "$[*]"
                  parameters:
                    x: iten.number
                    y: zzz
                  """))
          .containsExactly(
              "m.yaml:6:6 parameters.x: unknown name 'iten'; did you mean 'item'?",
              "m.yaml:7:6 parameters.y: unknown name 'zzz'; known: applicationSetName, input,"
                  + " item, vars");
    }

    @Test
    void anUndeclaredVarIsRefused() {
      assertThat(
              problems(
                  """
                  name: m
                  input:
                    key: {}
                  vars:
                    api: {default: "https://api.example.com"}
                  parameters:
                    x: vars.nope
                    y: vars[input.key]
                  """))
          .containsExactly(
              "m.yaml:7:6 parameters.x: vars 'nope' is not declared under vars; known: api",
              "m.yaml:8:6 parameters.y: name the vars literally, as vars.name");
    }
  }

  @Nested
  class Syntax {

    @Test
    void anInvalidJsonPathIsRefused() {
      assertThat(
              problems(
                  """
                  name: m
                  list:
                    request: {url: "https://api.example.com/a"}
                    items: "$.items[?(@.a ==]"
                  parameters:
                    x: "'a'"
                  """))
          .containsExactly(
              "m.yaml:4:10 list.items: invalid JsonPath '$.items[?(@.a ==]': unexpected ']' at 17");
    }

    @Test
    void aWholeNumberPastAnIntSaysHowToWriteIt() {
      List<String> problems =
          problems(
              """
              name: m
              parameters:
                x: "9007199254740992 + 1"
              """);
      assertThat(problems).hasSize(1);
      assertThat(problems.get(0))
          .startsWith("m.yaml:3:6 parameters.x: ")
          .endsWith(
              "The value '9007199254740992' cannot be parsed as an int (a whole number past"
                  + " 2147483647 is written with an L: 9007199254740992L)");
    }

    @Test
    void anInvalidSelectIsRefused() {
      assertThat(
              problems(
                  """
                  name: m
                  enrich:
                    e:
                      request: {url: "https://api.example.com/a"}
                      select: "$.a."
                  parameters:
                    x: e
                  """))
          .containsExactly(
              "m.yaml:5:13 enrich.e.select: invalid JsonPath '$.a.': Path must not end with a '.'"
                  + " or '..'");
    }

    @Test
    void invalidSpelSyntaxIsRefused() {
      assertThat(
              problems(
                  """
                  name: m
                  filter: "1 =="
                  parameters:
                    x: "item.a +"
                  """))
          .containsExactly(
              "m.yaml:2:9 filter: invalid expression '1 ==': Problem parsing right operand",
              "m.yaml:4:6 parameters.x: invalid expression 'item.a +': Problem parsing right"
                  + " operand");
    }

    @Test
    void anInvalidTemplateIsRefused() {
      assertThat(
              problems(
                  """
                  name: m
                  list:
                    request: {url: "https://api.example.com/#{item.a"}
                    items: "$[*]"
                  parameters:
                    x: "'a'"
                  """))
          .singleElement()
          .asString()
          .startsWith(
              "m.yaml:3:18 list.request.url: invalid template 'https://api.example.com/#{item.a':");
    }

    @Test
    void anInvalidInputPatternIsRefused() {
      assertThat(
              problems(
                  """
                  name: m
                  input:
                    branch:
                      pattern: "[a-z"
                  parameters:
                    x: input.branch
                  """))
          .containsExactly(
              "m.yaml:4:14 input.branch.pattern: invalid pattern: missing closing ]: `[a-z`");
    }

    @Test
    void lookaroundAndBackreferencesAreRefusedByName() {
      assertThat(
              problems(
                  """
                  name: m
                  input:
                    a: {pattern: "(?!\\\\.)[a-z]+"}
                    b: {pattern: "(?<=x)y"}
                    c: {pattern: "(a)\\\\1"}
                    d: {pattern: "((a{100}){100}){100}"}
                  parameters:
                    x: "input.a + input.b + input.c + input.d"
                  """))
          .containsExactly(
              "m.yaml:3:16 input.a.pattern: invalid pattern: the negative lookahead (?!...) is"
                  + " not supported: patterns are RE2 (linear time), without lookaround or"
                  + " backreferences",
              "m.yaml:4:16 input.b.pattern: invalid pattern: the lookbehind (?<=...) is not"
                  + " supported: patterns are RE2 (linear time), without lookaround or"
                  + " backreferences",
              "m.yaml:5:16 input.c.pattern: invalid pattern: the backreference \\1 is not"
                  + " supported: patterns are RE2 (linear time), without lookaround or"
                  + " backreferences",
              "m.yaml:6:16 input.d.pattern: invalid pattern: the pattern is too large (about"
                  + " 1000000 instructions once its repeats are expanded, at most 20000)");
    }

    @Test
    void theMatchesOperatorAndBadLiteralRegexesAreRefusedAtLoad() {
      assertThat(
              problems(
                  """
                  name: m
                  parameters:
                    a: "'x' matches 'x'"
                    b: "'x'.matches('(?=x)x')"
                    c: "'x'.replaceAll('(a)\\\\1', '')"
                    d: "'x'.split('[')"
                    e: "'x'.matches('x+')"
                  """))
          .containsExactly(
              "m.yaml:3:6 parameters.a: the 'matches' operator is not supported; call the method"
                  + " instead, as text.matches('regex') (RE2 syntax, linear time) (in ''x' matches"
                  + " 'x'')",
              "m.yaml:4:6 parameters.b: invalid pattern '(?=x)x' in matches(...): the lookahead"
                  + " (?=...) is not supported: patterns are RE2 (linear time), without lookaround"
                  + " or backreferences (in ''x'.matches('(?=x)x')')",
              "m.yaml:5:6 parameters.c: invalid pattern '(a)\\1' in replaceAll(...): the"
                  + " backreference \\1 is not supported: patterns are RE2 (linear time), without"
                  + " lookaround or backreferences (in ''x'.replaceAll('(a)\\1', '')')",
              "m.yaml:6:6 parameters.d: invalid pattern '[' in split(...): missing closing ]:"
                  + " `[` (in ''x'.split('[')')");
    }

    @Test
    void aRequiredInputCannotHaveADefault() {
      assertThat(
              problems(
                  """
                  name: m
                  input:
                    branch: {required: true, default: main}
                  parameters:
                    x: input.branch
                  """))
          .containsExactly("m.yaml:3:11 input.branch: an input with a default cannot be required");
    }

    @Test
    void aDeepScanNeedsMissingIsEmpty() {
      assertThat(
              problems(
                  """
                  name: m
                  list:
                    request: {url: "https://api.example.com/a"}
                    items: "$..items[*]"
                  parameters:
                    x: item
                  """))
          .containsExactly(
              "m.yaml:4:10 list.items: items '$..items[*]': a deep scan (..) finds what is there"
                  + " and cannot tell a missing container from an empty one; set missingIsEmpty:"
                  + " true to use it");
      assertThat(
              problems(
                  """
                  name: m
                  enrich:
                    a:
                      request: {url: "https://api.example.com/a"}
                      select: "$..name"
                  parameters:
                    x: a
                  """))
          .containsExactly(
              "m.yaml:5:13 enrich.a.select: select '$..name': a deep scan (..) finds what is"
                  + " there and cannot tell a missing container from an empty one; set"
                  + " missingIsEmpty: true to use it");
    }

    @Test
    void a204IsWholeOnlyForAValueThatReadsNoBody() throws Exception {
      String yaml =
          """
          name: m
          enrich:
            a:
              request: {method: HEAD, url: "https://api.example.com/a"}
              value: VALUE
          parameters:
            x: a
          """;
      assertThat(
              compile(yaml.replace("VALUE", "\"response.headers['ETag']\""))
                  .enrich()
                  .get(0)
                  .readsNoBody())
          .isTrue();
      assertThat(
              compile(yaml.replace("VALUE", "\"response?.status == 204\""))
                  .enrich()
                  .get(0)
                  .readsNoBody())
          .isTrue();
      assertThat(compile(yaml.replace("VALUE", "\"response.body\"")).enrich().get(0).readsNoBody())
          .isFalse();
      assertThat(
              compile(yaml.replace("VALUE", "\"#json(response)\"")).enrich().get(0).readsNoBody())
          .isFalse();
    }

    @Test
    void anEnrichPaginateNeedsAnIndefiniteSelect() {
      assertThat(
              problems(
                  """
                  name: m
                  enrich:
                    a:
                      request: {url: "https://api.example.com/a"}
                      select: "$.x"
                      paginate: {linkHeader: next}
                  parameters:
                    x: a
                  """))
          .containsExactly(
              "m.yaml:6:15 enrich.a.paginate: paginate on an enrich needs an indefinite 'select'"
                  + " (such as $[*]) whose pages are joined");
    }

    @Test
    void anIndefiniteNextPathIsRefused() {
      assertThat(
              problems(
                  """
                  name: m
                  list:
                    request: {url: "https://api.example.com/a"}
                    items: "$.items[*]"
                    paginate: {next: "$.links[*].href"}
                  parameters:
                    x: "'a'"
                  """))
          .containsExactly(
              "m.yaml:5:20 list.paginate.next: 'next' must be a definite JsonPath to one URL");
    }

    @Test
    void theListContainerIsTheDefinitePrefixOfItems() throws MappingException {
      CompiledMapping mapping =
          compile(
              """
              name: m
              list:
                request: {url: "https://api.example.com/a"}
                items: "$.data.items[*]"
                paginate: {next: "$.links.next"}
              parameters:
                x: "'a'"
              """);

      assertThat(mapping.list().items().path().getPath()).isEqualTo("$['data']['items'][*]");
      CompiledPaginate.NextUrl next = (CompiledPaginate.NextUrl) mapping.list().paginate();
      assertThat(next.next().getPath()).isEqualTo("$['links']['next']");
      assertThat(next.holder().getPath()).isEqualTo("$['links']");
    }
  }

  @Nested
  class Vars {

    private static final String API =
        """
        name: m
        vars:
          api: {default: "https://default.example.com", env: API_URL}
        parameters:
          x: vars.api
        """;

    private final Map<String, String> environment = new HashMap<>();

    private CompiledMapping compileWith(Map<String, String> overrides) throws MappingException {
      return compile(API, new CompileOptions(overrides, environment::get, new Redactor()));
    }

    @Test
    void aVarWithoutValueIsRefused() {
      assertThat(
              problems(
                  """
                  name: m
                  vars:
                    api: {env: API_URL}
                    org: {}
                  parameters:
                    x: vars.api
                  """))
          .containsExactly(
              "m.yaml:3:8 vars.api: var 'api' has no value: give it a default, set $API_URL or"
                  + " pass --var api=...",
              "m.yaml:4:8 vars.org: var 'org' has no value: give it a default or pass --var"
                  + " org=...");
    }

    @Test
    void theDefaultAppliesWithoutEnvironmentOrFlag() throws MappingException {
      assertThat(compileWith(Map.of()).vars())
          .containsExactly(Map.entry("api", "https://default.example.com"));
    }

    @Test
    void theEnvironmentBeatsTheDefault() throws MappingException {
      environment.put("API_URL", "https://env.example.com");

      assertThat(compileWith(Map.of()).vars())
          .containsExactly(Map.entry("api", "https://env.example.com"));
    }

    @Test
    void theFlagBeatsTheEnvironment() throws MappingException {
      environment.put("API_URL", "https://env.example.com");

      assertThat(compileWith(Map.of("api", "https://flag.example.com")).vars())
          .containsExactly(Map.entry("api", "https://flag.example.com"));
    }

    @Test
    void theFlagGivesAValueToAVarWithoutDefault() throws MappingException {
      CompiledMapping mapping =
          compile(
              """
              name: m
              vars:
                org: {}
              parameters:
                x: vars.org
              """,
              new CompileOptions(Map.of("org", "myorg"), name -> null, new Redactor()));

      assertThat(mapping.vars()).containsExactly(Map.entry("org", "myorg"));
    }
  }

  @Nested
  class Urls {

    @Test
    void aHostFromInputIsRefused() {
      assertThat(
              problems(
                  """
                  name: m
                  input:
                    host: {}
                  list:
                    request: {url: "https://#{input.host}/a"}
                    items: "$[*]"
                  parameters:
                    x: "'a'"
                  """))
          .containsExactly(
              "m.yaml:5:18 list.request.url: the scheme and host of a URL may come only from vars"
                  + " or upstream data, never from input; put the input in the path or the query");
    }

    @Test
    void aBaseFromInputIsRefused() {
      assertThat(
              problems(
                  """
                  name: m
                  input:
                    base: {}
                  enrich:
                    e:
                      request: {url: "#{input.base}/v2/x"}
                  parameters:
                    x: e
                  """))
          .containsExactly(
              "m.yaml:6:20 enrich.e.request.url: the scheme and host of a URL may come only from"
                  + " vars or upstream data, never from input; put the input in the path or the"
                  + " query");
    }

    @Test
    void inputRightAfterTheHostIsRefusedToo() {
      assertThat(
              problems(
                  """
                  name: m
                  input:
                    suffix: {}
                  list:
                    request: {url: "https://api.example.com#{input.suffix}"}
                    items: "$[*]"
                  parameters:
                    x: "'a'"
                  """))
          .containsExactly(
              "m.yaml:5:18 list.request.url: the scheme and host of a URL may come only from vars"
                  + " or upstream data, never from input; put the input in the path or the query");
    }

    @Test
    void inputInThePathAndQueryAndAHostFromVarsLoad() throws MappingException {
      CompiledMapping mapping =
          compile(
              """
              name: m
              input:
                owner: {}
                state: {}
              vars:
                api: {default: "https://api.github.com"}
              list:
                request: {url: "#{vars.api}/repos/#{input.owner}/pulls?state=#{input.state}"}
                items: "$[*]"
              parameters:
                x: item.number
              """);

      assertThat(mapping.list().request().url().roles())
          .containsExactly(
              UrlTemplate.Role.BASE,
              UrlTemplate.Role.LITERAL,
              UrlTemplate.Role.PATH,
              UrlTemplate.Role.LITERAL,
              UrlTemplate.Role.QUERY);
    }

    @Test
    void aLiteralUrlMustBeAbsoluteHttp() {
      assertThat(
              problems(
                  """
                  name: m
                  list:
                    request: {url: "/repos/a"}
                    items: "$[*]"
                  enrich:
                    e:
                      request: {url: "ftp://files.example.com/a"}
                    f:
                      request: {url: "https://exa mple.com/a"}
                    g:
                      request: {url: "https://example.com/t/{{ .item.name }}"}
                  parameters:
                    x: "'a'"
                  """))
          .containsExactly(
              "m.yaml:3:18 list.request.url: '/repos/a' is not an absolute http(s) URL",
              "m.yaml:7:20 enrich.e.request.url: 'ftp://files.example.com/a' is not an absolute"
                  + " http(s) URL",
              "m.yaml:9:20 enrich.f.request.url: invalid URL 'https://exa mple.com/a': Illegal"
                  + " character in authority",
              "m.yaml:11:20 enrich.g.request.url: '{{ .item.name }}' is Go template syntax,"
                  + " which would be sent as written: appset-mapper templates are #{...}: write"
                  + " #{item.name}");
    }
  }

  @Nested
  class Loading {

    @TempDir Path dir;

    @Test
    void duplicateMappingNamesAcrossFilesNameBothFiles() throws IOException {
      Path first = write(dir, "a.yaml", mapping("same"));
      Path second = write(dir, "b.yaml", mapping("same"));

      MappingLoader.Result result = MappingLoader.load(List.of(first, second), NO_ENVIRONMENT);

      assertThat(result.mappings())
          .singleElement()
          .satisfies(
              m -> {
                assertThat(m.name()).isEqualTo("same");
                assertThat(m.sourceFile()).isEqualTo(first.toString());
              });
      assertThat(result.problems())
          .extracting(Problem::toString)
          .containsExactly(
              second + ":1:7 name: duplicate mapping name 'same' (also in " + first + ")");
    }

    @Test
    void aDirectoryLoadsItsMappingFilesOnly() throws IOException {
      write(dir, "a.yaml", mapping("a"));
      write(dir, "b.yml", mapping("b"));
      // ConfigMap mount: the real files sit in a timestamped directory behind the ..data link.
      write(dir, "..2025_01_01_00_00_00.000000000/c.yaml", mapping("c"));
      Files.createSymbolicLink(
          dir.resolve("..data"), dir.resolve("..2025_01_01_00_00_00.000000000"));
      Files.createSymbolicLink(dir.resolve("c.yaml"), Path.of("..data/c.yaml"));
      // Everything below would be a problem if it were read.
      String broken = "name: [unclosed\n";
      write(dir, ".hidden.yaml", broken);
      write(dir, "pulls.test.yaml", broken);
      write(dir, "pulls.test.yml", broken);
      write(dir, "notes.txt", broken);
      write(dir, "nested/d.yaml", broken);

      MappingLoader.Result result = MappingLoader.load(List.of(dir), NO_ENVIRONMENT);

      assertThat(result.problems()).isEmpty();
      assertThat(result.mappings())
          .extracting(CompiledMapping::name)
          .containsExactly("a", "b", "c");
    }

    @Test
    void aFileNamedExplicitlyIsLoadedWhateverItsName() throws IOException {
      Path file = write(dir, "pulls.test.yaml", mapping("t"));

      MappingLoader.Result result = MappingLoader.load(List.of(file), NO_ENVIRONMENT);

      assertThat(result.problems()).isEmpty();
      assertThat(result.mappings()).extracting(CompiledMapping::name).containsExactly("t");
    }

    @Test
    void problemsOfEveryFileAreCollected() throws IOException {
      Path bad = write(dir, "bad.yaml", "name: m\nparamters: {}\n");
      Path worse = write(dir, "worse.yaml", "name: w\nparameters:\n  x: input.nope\n");
      write(dir, "good.yaml", mapping("g"));

      MappingLoader.Result result = MappingLoader.load(List.of(dir), NO_ENVIRONMENT);

      assertThat(result.ok()).isFalse();
      assertThat(result.mappings()).extracting(CompiledMapping::name).containsExactly("g");
      assertThat(result.problems())
          .extracting(p -> p.pos().file() + " " + p.message())
          .containsExactly(
              bad + " missing required key 'parameters'",
              bad + " unknown key 'paramters'; did you mean 'parameters'?",
              worse + " input 'nope' is not declared under input");
    }
  }

  @Nested
  class Sandbox {

    private static final String AT = "m.yaml:9:6 parameters.x: ";

    private static String method(String name, String expression) {
      return AT
          + "method '"
          + name
          + "' is not allowed; allowed: "
          + ALLOWED_METHODS
          + " (in '"
          + expression
          + "')";
    }

    private static String violation(String message, String expression) {
      return AT + message + " (in '" + expression + "')";
    }

    static Stream<Arguments> refused() {
      String typeRef = "type references (T(...)) are not allowed";
      return Stream.of(
          arguments(
              "T(java.lang.Runtime).getRuntime().exec('id')",
              List.of(
                  violation(typeRef, "T(java.lang.Runtime).getRuntime().exec('id')"),
                  method("getRuntime", "T(java.lang.Runtime).getRuntime().exec('id')"),
                  method("exec", "T(java.lang.Runtime).getRuntime().exec('id')"))),
          arguments(
              "new java.io.File('x')",
              List.of(
                  violation("constructors (new ...) are not allowed", "new java.io.File('x')"))),
          arguments("@bean", List.of(violation("bean references (@...) are not allowed", "@bean"))),
          arguments("&bean", List.of(violation("bean references (@...) are not allowed", "&bean"))),
          arguments(
              "''.getClass().forName('java.lang.Runtime')",
              List.of(
                  method("getClass", "''.getClass().forName('java.lang.Runtime')"),
                  method("forName", "''.getClass().forName('java.lang.Runtime')"))),
          arguments("item.getClass()", List.of(method("getClass", "item.getClass()"))),
          arguments(
              "#this.getClass()",
              List.of(
                  violation(
                      "method 'getClass' cannot be called on the scope; call it on a value",
                      "#this.getClass()"))),
          arguments(
              "item.labels.?[#this.getClass() != null]",
              List.of(method("getClass", "item.labels.?[#this.getClass() != null]"))),
          arguments(
              "T(java.lang.System).exit(1)",
              List.of(
                  violation(typeRef, "T(java.lang.System).exit(1)"),
                  method("exit", "T(java.lang.System).exit(1)"))),
          arguments("T(String)", List.of(violation(typeRef, "T(String)"))),
          arguments(
              "{a: T(java.lang.Runtime)}",
              List.of(violation(typeRef, "{a: T(java.lang.Runtime)}"))),
          arguments(
              "item.labels.![T(java.lang.Runtime)]",
              List.of(violation(typeRef, "item.labels.![T(java.lang.Runtime)]"))),
          arguments(
              "#x = 1",
              List.of(violation("assignment is not allowed (compare with ==)", "#x = 1"))),
          arguments(
              "item.a = 1",
              List.of(violation("assignment is not allowed (compare with ==)", "item.a = 1"))),
          arguments("item.a++", List.of(violation("assignment is not allowed", "item.a++"))),
          arguments("--item.a", List.of(violation("assignment is not allowed", "--item.a"))),
          arguments(
              "#unknownFn(1)",
              List.of(
                  violation(
                      "unknown function #unknownFn; known: #slug, #shortSha, #lower, #upper,"
                          + " #semverMax, #semverCompare, #semverValid, #semverSort,"
                          + " #semverMatches, #flatten, #first, #isList, #toNumber, #now,"
                          + " #epochSeconds, #secondsSince, #daysSince, #dateCompare, #dateFormat,"
                          + " #urlEncode, #regexQuote, #shellQuote, #entries, #sha256, #json,"
                          + " #default",
                      "#unknownFn(1)"))),
          arguments(
              "#slug", List.of(violation("#slug is a function; call it as #slug(...)", "#slug"))),
          arguments(
              "#env",
              List.of(
                  violation(
                      "unknown variable #env; only #this, #root and functions exist", "#env"))),
          arguments(
              "''.class.forName('x')",
              List.of(
                  violation("'class' cannot be read", "''.class.forName('x')"),
                  method("forName", "''.class.forName('x')"))),
          arguments("'x'.repeat(1000000000)", List.of(method("repeat", "'x'.repeat(1000000000)"))),
          arguments("'x'.toCharArray()", List.of(method("toCharArray", "'x'.toCharArray()"))),
          arguments("{1,2}.stream()", List.of(method("stream", "{1,2}.stream()"))),
          arguments(
              "input.branch.getBytes()", List.of(method("getBytes", "input.branch.getBytes()"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void refusedAtLoad(String expression, List<String> expected) {
      assertThat(problems(withParameter(expression))).containsExactlyElementsOf(expected);
    }

    @Test
    void aTypeReferenceInAUrlTemplateIsRefused() {
      assertThat(
              problems(
                  """
                  name: m
                  list:
                    request: {url: "https://api.example.com/#{T(java.lang.Runtime)}"}
                    items: "$[*]"
                  parameters:
                    x: "'a'"
                  """))
          .containsExactly(
              "m.yaml:3:18 list.request.url: type references (T(...)) are not allowed (in"
                  + " 'https://api.example.com/#{T(java.lang.Runtime)}')");
    }

    @Test
    void aMethodOutsideTheAllowlistInAFilterIsRefused() {
      assertThat(
              problems(
                  """
                  name: m
                  filter: "'x'.repeat(3) == 'xxx'"
                  parameters:
                    x: "'a'"
                  """))
          .containsExactly(
              "m.yaml:2:9 filter: method 'repeat' is not allowed; allowed: "
                  + ALLOWED_METHODS
                  + " (in ''x'.repeat(3) == 'xxx'')");
    }

    static Stream<Arguments> allowed() {
      return Stream.of(
          arguments("item.labels.![name].contains(input.label)", true),
          arguments("item.milestone?.title", null),
          arguments("#default(item.x, 'none')", "none"),
          arguments("#slug(item.head.ref, 50)", "feature-login-page"),
          arguments("input.branch.replace('/', '-')", "feat-x"),
          arguments("item.list.?[#this > 1]", List.of(2, 3)),
          arguments("item['head']['ref'].toLowerCase()", "feature/login_page"),
          arguments("item.labels.size() > 0 ? 'labelled' : 'plain'", "labelled"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("allowed")
    void allowedLoadsAndRuns(String expression, Object expected) throws MappingException {
      CompiledMapping mapping = compile(withParameter(expression));
      Scope scope =
          Scope.empty()
              .with(Scope.Name.INPUT, Map.of("branch", "feat/x", "label", "bug"))
              .with(
                  Scope.Name.ITEM,
                  Map.of(
                      "labels", List.of(Map.of("name", "bug")),
                      "head", Map.of("ref", "Feature/Login_Page"),
                      "list", List.of(1, 2, 3)));

      assertThat(mapping.parameters().get("x").evaluate(scope)).isEqualTo(expected);
    }
  }

  @Nested
  class KnownBugs {

    @Test
    void aHostFromInputThroughRootIsRefused() {
      assertThat(
              problems(
                  """
                  name: m
                  input:
                    host: {}
                  list:
                    request: {url: "https://#{#root.input.host}/a"}
                    items: "$[*]"
                  parameters:
                    x: "'a'"
                  """))
          .containsExactly(
              "m.yaml:5:18 list.request.url: the scheme and host of a URL may come only from vars"
                  + " or upstream data, never from input; put the input in the path or the query");
    }

    @Test
    void namesReadThroughRootAreChecked() {
      assertThat(
              problems(
                  """
                  name: m
                  secrets:
                    github: {env: GITHUB_TOKEN}
                  parameters:
                    x: "#root.secret.github"
                    y: "#this.response"
                  """))
          .containsExactly(
              "m.yaml:5:6 parameters.x: 'secret' can be used only inside a request (url, query,"
                  + " headers, body, auth)",
              "m.yaml:6:6 parameters.y: 'response' can be used only in an enrich 'value' or a"
                  + " 'failWhen'");
    }

    @Test
    void rootClassIsRefusedAtLoad() {
      List<String> problems = problems(withParameter("#root.class"));

      assertThat(problems).singleElement().asString().startsWith("m.yaml:9:6 parameters.x: ");
    }

    @Test
    void itemWithoutAListIsRefused() {
      assertThat(
              problems(
                  """
                  name: m
                  parameters:
                    x: item.number
                  """))
          .containsExactly(
              "m.yaml:3:6 parameters.x: 'item' exists only when the mapping has a 'list'");
    }

    @Test
    void anUnbalancedJsonPathIsRefused() {
      assertThat(
              problems(
                  """
                  name: m
                  list:
                    request: {url: "https://api.example.com/a"}
                    items: "$.items["
                  parameters:
                    x: "'a'"
                  """))
          .singleElement()
          .asString()
          .startsWith("m.yaml:4:10 list.items: invalid JsonPath '$.items[': ");
    }

    @Test
    void aDuplicateMappingNamePointsAtTheName(@TempDir Path dir) throws IOException {
      Path first = write(dir, "a.yaml", mapping("same"));
      Path second =
          write(dir, "b.yaml", "description: again\nname: same\nparameters:\n  x: \"'a'\"\n");

      MappingLoader.Result result = MappingLoader.load(List.of(first, second), NO_ENVIRONMENT);

      assertThat(result.problems())
          .extracting(Problem::toString)
          .containsExactly(
              second + ":2:7 name: duplicate mapping name 'same' (also in " + first + ")");
    }
  }

  /** A JsonPath is never a template: input spliced into a path could carry path syntax. */
  @Nested
  class TemplatesInJsonPaths {
    private static final String HINT =
        "'; select the whole object and choose in an expression, as an enrich `value:"
            + " response.body.entries[input.chart]`, or list.entries with `filter: item.key =="
            + " input.chart`";

    @Test
    void aHoleInAnyJsonPathIsRefusedAtLoadSayingTheWay() {
      assertThat(
              problems(
                  """
                  name: m
                  input:
                    chart: {}
                  list:
                    request: {url: "https://charts.example.com/index.yaml"}
                    items: "$.entries.#{input.chart}[*]"
                  enrich:
                    one:
                      request: {url: "https://charts.example.com/index.yaml"}
                      select: "$['entries']['#{input.chart}']"
                    next:
                      request: {url: "https://charts.example.com/index.yaml"}
                      select: "$.items[*]"
                      paginate: {next: "$.links.#{input.chart}"}
                  parameters: {x: item.name}
                  """))
          .containsExactly(
              "m.yaml:6:10 list.items: a JsonPath is not a template: '#{' cannot be used in"
                  + " '$.entries.#{input.chart}[*]"
                  + HINT,
              "m.yaml:10:13 enrich.one.select: a JsonPath is not a template: '#{' cannot be used"
                  + " in '$['entries']['#{input.chart}']"
                  + HINT,
              "m.yaml:14:22 enrich.next.paginate.next: a JsonPath is not a template: '#{' cannot"
                  + " be used in '$.links.#{input.chart}"
                  + HINT);
    }
  }
}
