package io.github.appsetmapper.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class MappingParserTest {

  private static final String KNOWN_TOP_KEYS =
      "allowedHosts, concurrency, deadline, defaults, description, distinctBy, enrich, explode,"
          + " filter, input, inputAdditional, keepTypes, key, label, let, limit, list, maxDrop,"
          + " minItems, name, parameters, secrets, sortBy, sortOrder, vars, version";

  private static List<MappingSpec> parse(String yaml) throws MappingException {
    return MappingParser.parse("m.yaml", yaml);
  }

  /** The problems of a file that must not load, each as {@code file:line:column path: message}. */
  private static List<String> problems(String yaml) {
    MappingException e = catchThrowableOfType(MappingException.class, () -> parse(yaml));
    assertThat(e).as("the mapping should have been refused").isNotNull();
    return e.problems().stream().map(Problem::toString).toList();
  }

  @Nested
  class ValidMappings {

    @Test
    void minimalMappingGetsTheDefaults() throws MappingException {
      List<MappingSpec> specs =
          parse(
              """
              name: m
              parameters:
                x: "'a'"
              """);

      assertThat(specs).hasSize(1);
      MappingSpec spec = specs.get(0);
      assertThat(spec.name()).isEqualTo("m");
      assertThat(spec.parameters()).containsOnlyKeys("x");
      assertThat(spec.parameters().get("x"))
          .isEqualTo(new Expr("'a'", new Pos("m.yaml", 3, 6, "parameters.x")));
      assertThat(spec.list()).isNull();
      assertThat(spec.enrich()).isEmpty();
      assertThat(spec.keepTypes()).isFalse();
      assertThat(spec.inputAdditional()).isFalse();
      assertThat(spec.sortOrder()).isEqualTo(MappingSpec.SortOrder.ASC);
      assertThat(spec.concurrency()).isEqualTo(8);
      assertThat(spec.minItems()).isZero();
      assertThat(spec.limit()).isNull();
    }

    @Test
    void versionOneIsAccepted() throws MappingException {
      assertThat(
              parse(
                  """
                  version: 1
                  name: m
                  parameters:
                    x: "'a'"
                  """))
          .extracting(MappingSpec::name)
          .containsExactly("m");
    }

    @Test
    void severalMappingsSeparatedByDocumentMarkers() throws MappingException {
      List<MappingSpec> specs =
          parse(
              """
              name: one
              parameters:
                x: "'a'"
              ---
              name: two
              parameters:
                x: "'b'"
              ---
              name: three
              parameters:
                x: "'c'"
              """);

      assertThat(specs).extracting(MappingSpec::name).containsExactly("one", "two", "three");
      assertThat(specs.get(1).pos()).isEqualTo(new Pos("m.yaml", 5, 1, ""));
    }

    @Test
    void aProblemInALaterDocumentNamesItsOwnLine() {
      assertThat(
              problems(
                  """
                  name: one
                  parameters:
                    x: "'a'"
                  ---
                  name: two
                  parameters:
                    x: "'b'"
                  sortOrder: sideways
                  """))
          .containsExactly("m.yaml:8:12 sortOrder: must be one of asc, desc, not 'sideways'");
    }

    @Test
    void anchorsAndAliasesShareTheRegistryHeaders() throws MappingException {
      // The format's Example 1, verbatim.
      MappingSpec spec =
          parse(
                  """
                  name: pr-digests                     # served at /mappings/pr-digests/api/v1/getparams.execute
                  description: Digests of the front and back images pushed for a branch.
                  input:
                    branch:
                      required: true
                      pattern: "[A-Za-z0-9._/-]{1,200}"   # whole-value match; a mismatch is a 400
                  secrets:
                    registry: {file: /var/run/secrets/registry/token}   # or {env: REGISTRY_TOKEN}
                  vars:
                    registry: {default: "https://registry.example.com", env: REGISTRY_URL}   # deploy-time setting
                  enrich:
                    front:
                      request:
                        method: HEAD
                        # CI tags images with the branch name, '/' turned into '-' (as docker/metadata-action does)
                        url: "#{vars.registry}/v2/myorg/front/manifests/#{input.branch.replace('/', '-')}"
                        headers: &registryHeaders      # a YAML anchor: the back image uses the same headers
                          Accept: "application/vnd.oci.image.index.v1+json, application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.list.v2+json, application/vnd.docker.distribution.manifest.v2+json"
                          Authorization: "Bearer #{secret.registry}"
                      value: "response.headers['Docker-Content-Digest']"
                      onMissing: drop                  # 404 or no such header: drop the row (image not built yet)
                    back:
                      request:
                        method: HEAD
                        url: "#{vars.registry}/v2/myorg/back/manifests/#{input.branch.replace('/', '-')}"
                        headers: *registryHeaders
                      value: "response.headers['Docker-Content-Digest']"
                      onMissing: drop
                  parameters:
                    digestFront: front
                    digestBack: back
                  """)
              .get(0);

      RequestSpec front = spec.enrich().get("front").request();
      RequestSpec back = spec.enrich().get("back").request();
      assertThat(back.options().headers()).containsOnlyKeys("Accept", "Authorization");
      assertThat(back.options().headers().get("Accept").text())
          .isEqualTo(front.options().headers().get("Accept").text())
          .startsWith("application/vnd.oci.image.index.v1+json, ");
      assertThat(back.options().headers().get("Authorization"))
          .isEqualTo(
              new Expr(
                  "Bearer #{secret.registry}",
                  // the alias reads the anchored node: its line, the alias's path
                  new Pos("m.yaml", 19, 24, "enrich.back.request.headers.Authorization")));
      assertThat(back.method()).isEqualTo("HEAD");
      assertThat(spec.enrich().get("back").onMissing()).isEqualTo(EnrichSpec.OnMissing.DROP);
      assertThat(spec.secrets().get("registry"))
          .isEqualTo(
              new SecretSpec(
                  new Pos("m.yaml", 8, 13, "secrets.registry"),
                  "registry",
                  "/var/run/secrets/registry/token",
                  null));
      assertThat(spec.vars().get("registry").defaultValue())
          .isEqualTo("https://registry.example.com");
      assertThat(spec.vars().get("registry").env()).isEqualTo("REGISTRY_URL");
    }

    @Test
    void mergeKeysAddTheAnchoredEntriesAndExplicitKeysWin() throws MappingException {
      MappingSpec spec =
          parse(
                  """
                  name: m
                  list:
                    request:
                      url: https://api.example.com/a
                      headers: &common
                        Accept: application/json
                        X-Team: platform
                    items: "$[*]"
                  enrich:
                    more:
                      request:
                        url: https://api.example.com/b
                        headers:
                          <<: *common
                          X-Team: delivery
                  parameters:
                    x: more
                  """)
              .get(0);

      Map<String, Expr> headers = spec.enrich().get("more").request().options().headers();
      assertThat(headers).containsOnlyKeys("Accept", "X-Team");
      assertThat(headers.get("Accept").text()).isEqualTo("application/json");
      assertThat(headers.get("X-Team").text()).isEqualTo("delivery");
    }

    @Test
    void aListOfMergedMappingsPrefersTheEarlierOne() throws MappingException {
      MappingSpec spec =
          parse(
                  """
                  name: m
                  vars:
                    api: &first {default: "https://first.example.com"}
                    web: &second {default: "https://second.example.com", env: WEB_URL}
                    both:
                      <<: [*first, *second]
                  parameters:
                    x: vars.both
                  """)
              .get(0);

      assertThat(spec.vars().get("both").defaultValue()).isEqualTo("https://first.example.com");
      assertThat(spec.vars().get("both").env()).isEqualTo("WEB_URL");
    }

    @Test
    void durationsAreReadLikeGo() throws MappingException {
      MappingSpec spec =
          parse(
                  """
                  name: m
                  list:
                    request: {url: "https://api.example.com/a", timeout: 1m30s}
                    items: "$[*]"
                  parameters:
                    x: "'a'"
                  """)
              .get(0);

      assertThat(spec.list().request().options().timeout()).isEqualTo(Duration.ofSeconds(90));
    }
  }

  @Nested
  class AllErrorsAtOnce {

    @Test
    void threeMistakesGiveThreeLines() {
      assertThatThrownBy(
              () ->
                  parse(
                      """
                      version: 2
                      name: Bad_Name
                      input:
                        branch: {type: text}
                      parameters:
                        x: input.branch
                      """))
          .isInstanceOf(MappingException.class)
          .hasMessage(
              "m.yaml:1:10 version: unsupported format version '2'; this reads version 1\n"
                  + "m.yaml:2:7 name: 'Bad_Name' must be lowercase letters, digits and '-', at most"
                  + " 63 (an RFC 1123 label), e.g. pr-digests\n"
                  + "m.yaml:4:18 input.branch.type: must be one of string, number, boolean, list,"
                  + " map, any, not 'text'");
    }

    @Test
    void problemsOfEveryBlockAreCollected() {
      assertThat(
              problems(
                  """
                  name: m
                  input:
                    branch: {requird: true}
                  secrets:
                    tok: {}
                    bad-name: {env: X}
                  list:
                    request: {url: "https://api.example.com/a"}
                  enrich:
                    e:
                      select: "$.a"
                      value: "response.body"
                  parameters:
                    x: "'a'"
                  """))
          .containsExactly(
              "m.yaml:3:12 input.branch.requird: unknown key 'requird'; did you mean 'required'?",
              "m.yaml:5:8 secrets.tok: needs 'file' or 'env'",
              "m.yaml:6:3 secrets.bad-name: 'bad-name' must be an identifier (letters, digits,"
                  + " '_'), so expressions can name it",
              "m.yaml:8:3 list: missing required key 'items' (a JsonPath such as $[*])",
              "m.yaml:11:5 enrich.e: missing required key 'request'",
              "m.yaml:11:5 enrich.e: holds both 'select' and 'value'; keep one");
    }
  }

  @Nested
  class UnknownKeys {

    @Test
    void aTypoUnderEnrichSuggestsSelect() {
      assertThat(
              problems(
                  """
                  name: m
                  enrich:
                    front:
                      request:
                        url: "https://registry.example.com/v2/x"
                      selct: "$.digest"
                  parameters:
                    x: front
                  """))
          .containsExactly(
              "m.yaml:6:5 enrich.front.selct: unknown key 'selct'; did you mean 'select'?");
    }

    @Test
    void aTypoAtTheTopSuggestsParameters() {
      MappingException e =
          catchThrowableOfType(
              MappingException.class,
              () ->
                  parse(
                      """
                      name: m
                      paramters:
                        x: "'a'"
                      """));

      assertThat(e.problems())
          .containsExactly(
              new Problem(new Pos("m.yaml", 1, 1, ""), "missing required key 'parameters'"),
              new Problem(
                  new Pos("m.yaml", 2, 1, "paramters"),
                  "unknown key 'paramters'; did you mean 'parameters'?"));
      assertThat(e.problems().get(1))
          .hasToString("m.yaml:2:1 paramters: unknown key 'paramters'; did you mean 'parameters'?");
    }

    @Test
    void aKeyFarFromAnyKnownOneListsTheKnownKeys() {
      assertThat(
              problems(
                  """
                  name: m
                  colour: blue
                  parameters:
                    x: "'a'"
                  """))
          .containsExactly("m.yaml:2:1 colour: unknown key 'colour'; known: " + KNOWN_TOP_KEYS);
    }

    @Test
    void aTypoInARequestSuggestsTheRequestKey() {
      assertThat(
              problems(
                  """
                  name: m
                  list:
                    request:
                      url: https://api.example.com/a
                      header: {Accept: application/json}
                    items: "$[*]"
                  parameters:
                    x: "'a'"
                  """))
          .containsExactly(
              "m.yaml:5:5 list.request.header: unknown key 'header'; did you mean 'headers'?");
    }
  }

  @Nested
  class DuplicateKeys {

    @Test
    void aDuplicateKeyNamesTheFirstLine() {
      assertThat(
              problems(
                  """
                  name: m
                  parameters:
                    x: "'a'"
                    y: "'b'"
                    x: "'c'"
                  """))
          .containsExactly("m.yaml:5:3 parameters.x: duplicate key 'x' (first at line 3)");
    }

    @Test
    void aDuplicateTopKeyInALaterDocument() {
      assertThat(
              problems(
                  """
                  name: one
                  parameters:
                    x: "'a'"
                  ---
                  name: two
                  name: three
                  parameters:
                    x: "'b'"
                  """))
          .containsExactly("m.yaml:6:1 name: duplicate key 'name' (first at line 5)");
    }

    @Test
    void anExplicitKeyBesideAMergedOneIsNoDuplicate() throws MappingException {
      assertThat(
              parse(
                  """
                  name: m
                  vars:
                    api: &api {default: "https://api.example.com"}
                    web:
                      <<: *api
                      default: "https://web.example.com"
                  parameters:
                    x: vars.web
                  """))
          .singleElement()
          .satisfies(
              spec ->
                  assertThat(spec.vars().get("web").defaultValue())
                      .isEqualTo("https://web.example.com"));
    }
  }

  @Nested
  class Expressions {

    @Test
    void anUnquotedHashValueIsAYamlCommentAndMustBeQuoted() {
      assertThat(
              problems(
                  """
                  name: m
                  list:
                    request:
                      url: https://api.example.com/pulls
                    items: "$[*]"
                  parameters:
                    branch_slug: #slug(item.head.ref, 50)
                    number: item.number
                  """))
          .containsExactly(
              "m.yaml:7:15 parameters.branch_slug: empty expression; a value starting with '#'"
                  + " must be quoted, or YAML reads it as a comment");
    }

    @Test
    void anUnquotedTemplateUrlIsAYamlCommentToo() {
      assertThat(
              problems(
                  """
                  name: m
                  vars:
                    api: {default: "https://api.example.com"}
                  list:
                    request:
                      url: #{vars.api}/pulls
                    items: "$[*]"
                  parameters:
                    x: "'a'"
                  """))
          .containsExactly(
              "m.yaml:6:9 list.request.url: empty expression; a value starting with '#' must"
                  + " be quoted, or YAML reads it as a comment");
    }

    @Test
    void generatorAndValuesParameterKeysAreRefused() {
      assertThat(
              problems(
                  """
                  name: m
                  parameters:
                    generator: "'a'"
                    values: "'b'"
                    ok: "'c'"
                  """))
          .containsExactly(
              "m.yaml:3:3 parameters.generator: 'generator' is overwritten by Argo CD in every"
                  + " parameter map; choose another name",
              "m.yaml:4:3 parameters.values: 'values' is overwritten by Argo CD in every"
                  + " parameter map; choose another name");
    }

    @Test
    void aParameterMustBeAnExpressionString() {
      assertThat(
              problems(
                  """
                  name: m
                  parameters:
                    a: 42
                    b: [item.a]
                  """))
          .containsExactly("m.yaml:4:6 parameters.b: must be an expression string");
    }

    @Test
    void parametersMustDeclareOne() {
      assertThat(
              problems(
                  """
                  name: m
                  parameters: {}
                  """))
          .containsExactly("m.yaml:2:13 parameters: declares no parameter");
    }
  }

  @Nested
  class BodyFormats {
    @Test
    void formatIsJsonYamlOrTextAndNotOnALogin() {
      assertThat(
              problems(
                  """
                  name: m
                  secrets: {pw: {env: PW}}
                  list:
                    request:
                      url: "https://a.example.com/x"
                      format: xml
                      auth:
                        login:
                          request: {method: POST, url: "https://a.example.com/login", format: yaml}
                          token: "$.token"
                    items: "$[*]"
                  parameters: {x: "'a'"}
                  """))
          .containsExactly(
              "m.yaml:6:13 list.request.format: must be one of json, yaml, text, not 'xml'",
              "m.yaml:9:77 list.request.auth.login.request.format: a login request takes no format;"
                  + " its answer is JSON");
    }

    @Test
    void formatAndEntriesAreRead() throws MappingException {
      MappingSpec spec =
          MappingParser.parse(
                  "m.yaml",
                  """
                  name: m
                  list:
                    request: {url: "https://a.example.com/index.yaml", format: yaml}
                    items: "$.entries"
                    entries: "$[*]"
                  parameters: {x: item.key}
                  """)
              .get(0);
      assertThat(spec.list().request().format()).isEqualTo(BodyFormat.YAML);
      assertThat(spec.list().entries().text()).isEqualTo("$[*]");
    }
  }

  @Nested
  class CompleteAnswers {
    @Test
    void acceptStatusListsOnly2xx() {
      assertThat(
              problems(
                  """
                  name: m
                  list:
                    request: {url: "https://a.example.com/x", acceptStatus: [202, 404, many]}
                    items: "$[*]"
                  parameters: {x: "'a'"}
                  """))
          .containsExactly(
              "m.yaml:3:59 list.request.acceptStatus: lists 2xx statuses to take as complete"
                  + " answers (200 to 299); 404 is not one",
              "m.yaml:3:59 list.request.acceptStatus: lists 2xx statuses to take as complete"
                  + " answers; 'many' is not a status");
    }

    @Test
    void aLoginRequestTakesNoAcceptStatus() {
      assertThat(
              problems(
                  """
                  name: m
                  secrets: {pw: {env: PW}}
                  list:
                    request:
                      url: "https://a.example.com/x"
                      auth:
                        login:
                          request: {method: POST, url: "https://a.example.com/login", acceptStatus: [201]}
                          token: "$.token"
                    items: "$[*]"
                  parameters: {x: "'a'"}
                  """))
          .containsExactly(
              "m.yaml:8:83 list.request.auth.login.request.acceptStatus: a login request takes no"
                  + " acceptStatus; any 2xx answer with the token is");
    }

    @Test
    void endStatusListsOnly4xxAndStopOnShortPageNeedsASize() {
      assertThat(
              problems(
                  """
                  name: m
                  list:
                    request: {url: "https://a.example.com/x"}
                    items: "$[*]"
                    paginate: {page: {param: page, endStatus: [500], stopOnShortPage: true}}
                  parameters: {x: "'a'"}
                  """))
          .containsExactly(
              "m.yaml:5:20 list.paginate.page: stopOnShortPage needs size (a page with fewer rows"
                  + " is the last)",
              "m.yaml:5:45 list.paginate.page.endStatus: lists 4xx statuses that mean the pages"
                  + " ran out (400 to 499); 500 is not one");
    }

    @Test
    void theNewFieldsLoad() throws Exception {
      MappingSpec spec =
          parse(
                  """
                  name: m
                  list:
                    request: {url: "https://a.example.com/x", acceptStatus: [202]}
                    items: "$[*]"
                    missingIsEmpty: true
                    paginate:
                      page: {param: page, size: 50, endStatus: [404, 422], stopOnShortPage: true}
                  parameters: {x: "'a'"}
                  """)
              .get(0);
      assertThat(spec.list().request().acceptStatus()).containsExactly(202);
      assertThat(spec.list().missingIsEmpty()).isTrue();
      assertThat(spec.list().paginate().page().endStatus()).containsExactlyInAnyOrder(404, 422);
      assertThat(spec.list().paginate().page().stopOnShortPage()).isTrue();
    }
  }

  @Nested
  class Fields {

    @Test
    void aNameMustBeAnRfc1123Label() {
      assertThat(
              problems(
                  """
                  name: PR_Digests
                  parameters:
                    x: "'a'"
                  """))
          .containsExactly(
              "m.yaml:1:7 name: 'PR_Digests' must be lowercase letters, digits and '-', at most"
                  + " 63 (an RFC 1123 label), e.g. pr-digests");
    }

    @Test
    void aNameMayNotEndWithADash() {
      assertThat(
              problems(
                  """
                  name: digests-
                  parameters:
                    x: "'a'"
                  """))
          .containsExactly(
              "m.yaml:1:7 name: 'digests-' must be lowercase letters, digits and '-', at most"
                  + " 63 (an RFC 1123 label), e.g. pr-digests");
    }

    @Test
    void missingNameAndParametersAreBothReported() {
      MappingException e =
          catchThrowableOfType(MappingException.class, () -> parse("description: only this\n"));

      assertThat(e.problems())
          .containsExactly(
              new Problem(new Pos("m.yaml", 1, 1, ""), "missing required key 'name'"),
              new Problem(new Pos("m.yaml", 1, 1, ""), "missing required key 'parameters'"));
    }

    @Test
    void aBadDurationSaysHowToWriteOne() {
      assertThat(
              problems(
                  """
                  name: m
                  list:
                    request:
                      url: https://api.example.com/a
                      timeout: 5 seconds
                    items: "$[*]"
                  parameters:
                    x: "'a'"
                  """))
          .containsExactly(
              "m.yaml:5:14 list.request.timeout: invalid duration '5 seconds'; write it like"
                  + " 500ms, 10s, 1m30s or 2h");
    }

    @Test
    void aBadOnMissingListsTheChoices() {
      assertThat(
              problems(
                  """
                  name: m
                  enrich:
                    e:
                      request: {url: "https://api.example.com/a"}
                      onMissing: skip
                  parameters:
                    x: e
                  """))
          .containsExactly(
              "m.yaml:5:16 enrich.e.onMissing: must be one of error, drop, null, not 'skip'");
    }

    @Test
    void onMissingNullMayBeWrittenUnquoted() throws MappingException {
      MappingSpec spec =
          parse(
                  """
                  name: m
                  enrich:
                    e:
                      request: {url: "https://api.example.com/a"}
                      onMissing: null
                  parameters:
                    x: e
                  """)
              .get(0);

      assertThat(spec.enrich().get("e").onMissing()).isEqualTo(EnrichSpec.OnMissing.NULL);
    }

    @Test
    void versionTwoIsRefused() {
      assertThat(
              problems(
                  """
                  version: 2
                  name: m
                  parameters:
                    x: "'a'"
                  """))
          .containsExactly(
              "m.yaml:1:10 version: unsupported format version '2'; this reads version 1");
    }

    @Test
    void aFileWithoutAMappingIsRefused() {
      assertThat(problems("# only a comment\n"))
          .containsExactly("m.yaml:1:1 (file): holds no mapping");
    }

    @Test
    void aDocumentMustBeAMap() {
      assertThat(problems("- name: m\n"))
          .containsExactly("m.yaml:1:1 (document): a mapping must be a YAML map");
    }
  }

  @Nested
  class CacheAndMaxDrop {

    @Test
    void cacheAndMaxDropAreRead() throws Exception {
      MappingSpec spec =
          MappingParser.parse(
                  "m.yaml",
                  """
                  name: m
                  maxDrop: 50%
                  defaults:
                    cache: {ttl: 1m, staleIfError: 1h}
                  list:
                    request:
                      url: https://api.example.com/a
                      cache: {ttl: 30s}
                    items: "$[*]"
                  parameters:
                    x: "'a'"
                  """)
              .get(0);
      assertThat(spec.maxDrop()).isEqualTo(new MaxDrop(50, true));
      assertThat(spec.defaults().cache().ttl()).isEqualTo(java.time.Duration.ofMinutes(1));
      assertThat(spec.defaults().cache().staleIfError()).isEqualTo(java.time.Duration.ofHours(1));
      assertThat(spec.list().request().options().cache().ttl())
          .isEqualTo(java.time.Duration.ofSeconds(30));
      assertThat(spec.list().request().options().cache().staleIfError())
          .isEqualTo(java.time.Duration.ZERO);
    }

    @Test
    void maxDropCountsAndPercentages() {
      assertThat(new MaxDrop(50, true).refuses(10, 5)).isFalse();
      assertThat(new MaxDrop(50, true).refuses(10, 4)).isTrue();
      assertThat(new MaxDrop(3, false).refuses(10, 7)).isFalse();
      assertThat(new MaxDrop(3, false).refuses(10, 6)).isTrue();
      assertThat(new MaxDrop(0, false).refuses(10, 12)).isFalse();
      assertThat(MaxDrop.parse("10")).isEqualTo(new MaxDrop(10, false));
      assertThat(MaxDrop.parse("101%")).isNull();
    }

    @Test
    void badValuesAreNamed() {
      assertThat(
              problems(
                  """
                  name: m
                  maxDrop: 150%
                  defaults:
                    cache: {staleIfError: 1m}
                  list:
                    request:
                      url: https://api.example.com/a
                      cache: {ttl: 1m, stale: 1h}
                    items: "$[*]"
                  parameters:
                    x: "'a'"
                  """))
          .containsExactly(
              "m.yaml:2:10 maxDrop: must be a count of rows (10) or a percentage from 0% to 100%"
                  + " (50%), not '150%'",
              "m.yaml:4:10 defaults.cache: missing required key 'ttl' (how long an answer is"
                  + " fresh)",
              "m.yaml:8:22 list.request.cache.stale: unknown key 'stale'; known: staleIfError,"
                  + " ttl");
    }
  }

  @Nested
  class YamlSyntax {

    @Test
    void anUnclosedFlowSequence() {
      assertThat(
              problems(
                  """
                  name: m
                  parameters:
                    x: [unclosed
                    y: "'b'"
                  """))
          .containsExactly("m.yaml:4:4 (yaml): expected ',' or ']', but got :");
    }

    @Test
    void anUnterminatedQuote() {
      assertThat(
              problems(
                  """
                  name: m
                  parameters:
                    x: "'a
                  """))
          .containsExactly("m.yaml:4:1 (yaml): found unexpected end of stream");
    }

    @Test
    void anEscapeThatIsNotACharacter() {
      // SnakeYAML's scanner throws NumberFormatException for it, not a YAMLException.
      assertThat(problems("name: m\nparameters:\n  x: \"\\UFFFFFFFF\"\n"))
          .containsExactly(
              "m.yaml:1:1 (yaml): a \\x, \\u or \\U escape in a double-quoted text is not a"
                  + " character");
    }

    @Test
    void aTabIndentation() {
      assertThat(problems("name: m\nparameters:\n\tx: \"'a'\"\n"))
          .containsExactly(
              "m.yaml:3:1 (yaml): found character '\\t(TAB)' that cannot start any token. (Do not"
                  + " use \\t(TAB) for indentation)");
    }
  }

  @Nested
  class KnownBugs {

    @Test
    void anOverflowingDurationIsAProblemNotACrash() {
      assertThatThrownBy(
              () ->
                  parse(
                      """
                      name: m
                      list:
                        request: {url: "https://api.example.com/a", timeout: 9999999999999999h}
                        items: "$[*]"
                      parameters:
                        x: "'a'"
                      """))
          .isInstanceOf(MappingException.class)
          .hasMessageStartingWith("m.yaml:3:56 list.request.timeout: ");
    }

    @Test
    void aProblemWithoutPathPrintsWithoutAStraySpace() {
      assertThat(problems("description: only this\n"))
          .containsExactly(
              "m.yaml:1:1: missing required key 'name'",
              "m.yaml:1:1: missing required key 'parameters'");
    }
  }

  @org.junit.jupiter.api.Test
  void aliasesThatExpandTooFarAreRefused() {
    StringBuilder yaml = new StringBuilder("name: m\nx0: &a0 [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n");
    for (int i = 1; i <= 6; i++) {
      yaml.append("x").append(i).append(": &a").append(i).append(" [");
      for (int j = 0; j < 10; j++) {
        yaml.append(j == 0 ? "" : ", ").append("*a").append(i - 1);
      }
      yaml.append("]\n");
    }
    yaml.append("list:\n  request:\n    url: https://api.example.com/a\n    method: POST\n");
    yaml.append("    body: *a6\n  items: \"$[*]\"\nparameters: {x: \"'a'\"}\n");
    String text = yaml.toString().replaceAll("(?m)^x\\d+: ", "    - ");
    MappingException e =
        org.assertj.core.api.Assertions.catchThrowableOfType(
            MappingException.class, () -> parse(text.replaceFirst("    - ", "anchors:\n    - ")));
    assertThat(e).isNotNull();
    assertThat(e.problems())
        .extracting(Problem::message)
        .contains(
            "expands to more than 4194304 characters once its aliases are expanded (aliases of"
                + " aliases?)");
  }

  /** {@code key}: the parameters that identify a row, for diff and shadow mode. */
  @Nested
  class Key {
    @Test
    void oneNameOrAListOfParameters() throws MappingException {
      assertThat(
              parse(
                      """
                  name: m
                  key: number
                  parameters: {number: "'1'", title: "'t'"}
                  """)
                  .get(0)
                  .key())
          .containsExactly("number");
      assertThat(
              parse(
                      """
                  name: m
                  key: [number, title]
                  parameters: {number: "'1'", title: "'t'"}
                  """)
                  .get(0)
                  .key())
          .containsExactly("number", "title");
      assertThat(parse("name: m\nparameters: {n: \"'1'\"}\n").get(0).key()).isEmpty();
    }

    @Test
    void aNameThatIsNoParameterIsRefusedWithASuggestion() {
      assertThat(
              problems(
                  """
                  name: m
                  key: numbr
                  parameters: {number: "'1'"}
                  """))
          .singleElement()
          .asString()
          .contains("key: 'numbr' is not a parameter of this mapping")
          .contains("number");
    }

    @Test
    void anEmptyListOrARepeatedNameIsRefused() {
      assertThat(problems("name: m\nkey: []\nparameters: {n: \"'1'\"}\n"))
          .singleElement()
          .asString()
          .contains("must name at least one parameter");
      assertThat(problems("name: m\nkey: [n, n]\nparameters: {n: \"'1'\"}\n"))
          .singleElement()
          .asString()
          .contains("names parameter 'n' twice");
    }
  }
}
