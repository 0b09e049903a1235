package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.appsetmapper.server.Json;
import io.github.appsetmapper.testing.LogCapture;
import io.github.appsetmapper.testing.NoLeak;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.SecretForms;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstreams that echo the credentials they were sent, in every form a secret takes on the wire: the
 * 502 body, the explain report (JSON and text) and the server's log never hold the secret or any
 * {@link SecretForms#PIECE}-character piece of any of its forms. The secrets are full of reserved
 * and non-ASCII characters, which each encoder treats differently.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LeakTest {
  private static final String PASSWORD = SecretForms.NASTY;
  private static final String KEY = "q~" + SecretForms.NASTY + "-key";
  private static final String USER = "bot";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, String> ECHOES = SecretForms.echoes(USER, PASSWORD);

  private static final String BASIC =
      """
      name: basic
      input:
        form: {required: true, pattern: "[0-9]{1,3}"}
      vars: {up: {default: "http://unset.invalid"}}
      secrets: {pw: {env: PW}}
      list:
        request:
          url: "#{vars.up}/echo/#{input.form}"
          auth: {basic: {username: bot, password: {secret: pw}}}
          retries: 0
        items: "$[*]"
      parameters: {id: item}
      """;

  private static final String KEYED =
      """
      name: keyed
      vars: {up: {default: "http://unset.invalid"}}
      secrets: {key: {env: KEY}}
      list:
        request:
          url: "#{vars.up}/pages"
          query: {key: "#{secret.key}"}
          retries: 0
        items: "$[*]"
        paginate: {linkHeader: next}
      parameters: {id: item}
      """;

  /**
   * Longer than any cut a message makes of a quote, so a prefix cut before redaction would show;
   * ASCII, as a bearer token in a header must be.
   */
  private static final String LONG =
      "L0ng~!*'();:@&=+$,/?#[]% \"\\-0123456789abcdefghijklmnopqrstuvwxyz-" + "Zq7".repeat(30);

  private static final String CLIENT = "cl1ent~" + SecretForms.NASTY + "-" + "Wx9".repeat(30);

  /** An upstream that uses the credentials it was sent as JSON keys, and in its next link. */
  private static final String KEYS =
      """
      name: keys
      input:
        how: {required: true, pattern: "[a-z]{1,20}"}
      vars: {up: {default: "http://unset.invalid"}}
      secrets: {long: {env: LONG}, client: {env: CLIENT}}
      list:
        request:
          url: "#{vars.up}/keys/#{input.how}"
          auth: {bearer: {secret: long}}
          retries: 0
        items: "$.items[*]"
        paginate: {next: "$.next"}
      parameters: {id: item}
      """;

  private static final String OAUTH =
      """
      name: oauth
      vars: {up: {default: "http://unset.invalid"}}
      secrets: {client: {env: CLIENT}}
      list:
        request:
          url: "#{vars.up}/items"
          retries: 0
          auth:
            oauth2:
              tokenUrl: "#{vars.up}/oauth/token"
              clientId: appset-mapper
              clientSecret: {secret: client}
        items: "$[*]"
      parameters: {id: item}
      """;

  private StubUpstream stub;
  private PluginServer plugin;
  private LogCapture logs;

  @BeforeAll
  void start(@TempDir Path dir) {
    logs = new LogCapture();
    stub = new StubUpstream();
    List<String> echoes = new ArrayList<>(ECHOES.values());
    for (int i = 0; i < echoes.size(); i++) {
      String echo = echoes.get(i);
      stub.on(
          "GET /echo/" + i,
          r -> Reply.json(401, "{\"message\":" + Json.write("bad credentials " + echo) + "}"));
    }
    // A message longer than the excerpt kept of it, the credentials where the cut falls.
    stub.on(
        "GET /echo/900",
        r ->
            Reply.json(
                401,
                "{\"message\":"
                    + Json.write("x".repeat(150) + " " + PASSWORD + " " + "y".repeat(100))
                    + "}"));
    // The upstream re-encodes the query secret in its next link, every byte as %XX ('~' as %7E).
    stub.on(
        "GET /pages",
        r ->
            r.rawUri().contains("page=2")
                ? Reply.json(500, "{\"message\":\"no such page\"}")
                : Reply.json(200, "[1]")
                    .withHeader(
                        "Link",
                        "<"
                            + stub.url()
                            + "/pages?key="
                            + SecretForms.percent(KEY, null, true)
                            + "&page=2>; rel=\"next\""));
    // The bearer token as a key given twice: the codec's message quotes the key.
    stub.on(
        "GET /keys/twice",
        r -> {
          String key = Json.write(r.header("authorization").substring("Bearer ".length()));
          return Reply.json(200, "{\"items\":[]," + key + ":1," + key + ":2}");
        });
    // The token inside a JSON string inside JSON, percent-encoded into the next link, which
    // then fails: the error quotes the link.
    stub.on(
        "GET /keys/nested",
        r -> {
          if (r.rawUri().contains("state=")) {
            return Reply.json(500, "{\"message\":\"no such page\"}");
          }
          String token = r.header("authorization").substring("Bearer ".length());
          String state = Json.write(Json.write(Map.of("token", token)));
          return Reply.json(
              200,
              "{\"items\":[1],\"next\":"
                  + Json.write(
                      stub.url() + "/keys/nested?state=" + SecretForms.percent(state, "", true))
                  + "}");
        });
    // A token endpoint that answers 200 with the client secret as a key, twice.
    stub.on(
        "POST /oauth/token",
        r -> {
          String form = java.net.URLDecoder.decode(r.bodyText(), StandardCharsets.UTF_8);
          String basic = r.header("authorization");
          String secret =
              basic == null
                  ? form.replaceAll("(?s).*client_secret=([^&]*).*", "$1")
                  : new String(
                          Base64.getDecoder().decode(basic.substring("Basic ".length())),
                          StandardCharsets.UTF_8)
                      .split(":", 2)[1];
          secret = java.net.URLDecoder.decode(secret, StandardCharsets.UTF_8);
          String key = Json.write(secret);
          return Reply.json(200, "{" + key + ":1," + key + ":2}");
        });
    plugin =
        PluginServer.withYaml(
            dir,
            Map.of("up", stub.url()),
            Map.of("PW", PASSWORD, "KEY", KEY, "LONG", LONG, "CLIENT", CLIENT),
            BASIC,
            KEYED,
            KEYS,
            OAUTH);
  }

  @AfterAll
  void stop() {
    plugin.close();
    stub.close();
    logs.close();
  }

  static Stream<String> echoes() {
    return ECHOES.keySet().stream();
  }

  private static String body(String form) {
    return "{\"applicationSetName\":\"leak\",\"input\":{\"parameters\":{\"form\":\""
        + form
        + "\"}}}";
  }

  @ParameterizedTest
  @MethodSource("echoes")
  void anEchoedCredentialReachesNoAnswerReportOrLogLine(String name) {
    String form = Integer.toString(new ArrayList<>(ECHOES.keySet()).indexOf(name));
    Answer answer = plugin.getparams("basic", body(form));
    assertThat(stub.received().get(stub.received().size() - 1).header("authorization"))
        .isEqualTo(
            "Basic "
                + Base64.getEncoder()
                    .encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8)));
    assertThat(answer.status()).isEqualTo(502);
    assertThat(answer.body()).contains("answered 401 (bad credentials ").contains("***");
    assertNoLeak(answer.body(), PASSWORD);
    assertNoLeak(explain("basic", body(form), ""), PASSWORD);
    assertNoLeak(explain("basic", body(form), "?format=text"), PASSWORD);
    assertNoLeak(String.join("\n", logs.lines()), PASSWORD);
  }

  @Test
  void aMessageIsRedactedBeforeItIsCut() {
    Answer answer = plugin.getparams("basic", body("900"));
    assertThat(answer.status()).isEqualTo(502);
    assertThat(answer.body())
        .endsWith("answered 401 (" + "x".repeat(150) + " *** " + "y".repeat(5) + "...)\"}");
    assertNoLeak(answer.body(), PASSWORD);
    assertNoLeak(explain("basic", body("900"), ""), PASSWORD);
    assertNoLeak(String.join("\n", logs.lines()), PASSWORD);
  }

  @Test
  void aQuerySecretReEncodedInANextLinkIsScrubbed() {
    Answer answer = plugin.getparams("keyed", "{}");
    assertThat(answer.status()).isEqualTo(502);
    assertThat(answer.body())
        .isEqualTo(
            "{\"error\":\"mapping 'keyed': list GET "
                + stub.url()
                + "/pages?key=***&page=2: answered 500 (no such page)\"}");
    assertNoLeak(explain("keyed", "{}", ""), KEY);
    assertNoLeak(explain("keyed", "{}", "?format=text"), KEY);
    assertNoLeak(String.join("\n", logs.lines()), KEY);
  }

  @Test
  void aSecretAnUpstreamSendsAsAKeyTwiceIsRedactedBeforeItIsCut() {
    String body = "{\"input\":{\"parameters\":{\"how\":\"twice\"}}}";
    Answer answer = plugin.getparams("keys", body);
    assertThat(answer.status()).isEqualTo(502);
    assertThat(answer.body())
        .startsWith(
            "{\"error\":\"mapping 'keys': list GET "
                + stub.url()
                + "/keys/twice: the answer has the key '***' twice in one object (line 1,");
    assertNoLeak(explain("keys", body, ""), LONG);
    assertNoLeak(explain("keys", body, "?format=text"), LONG);
    assertNoLeak(String.join("\n", logs.lines()), LONG);
  }

  @Test
  void aTokenEndpointEchoingTheClientSecretAsAKeyLeaksNothing() {
    Answer answer = plugin.getparams("oauth", "{}");
    assertThat(answer.status()).isEqualTo(502);
    assertThat(answer.body()).contains("the answer has the key '***' twice in one object");
    assertNoLeak(answer.body(), CLIENT);
    assertNoLeak(explain("oauth", "{}", ""), CLIENT);
    assertNoLeak(String.join("\n", logs.lines()), CLIENT);
  }

  @Test
  void aSecretNestedInJsonInsideJsonInANextLinkIsScrubbed() {
    String body = "{\"input\":{\"parameters\":{\"how\":\"nested\"}}}";
    Answer answer = plugin.getparams("keys", body);
    assertThat(answer.status()).isEqualTo(502);
    assertThat(answer.body()).contains("answered 500 (no such page)").contains("***");
    assertNoLeak(answer.body(), LONG);
    assertNoLeak(explain("keys", body, ""), LONG);
    assertNoLeak(explain("keys", body, "?format=text"), LONG);
    assertNoLeak(String.join("\n", logs.lines()), LONG);
  }

  private String explain(String mapping, String body, String query) {
    Answer answer =
        plugin.send(
            "POST",
            "/mappings/" + mapping + "/api/v1/getparams.explain" + query,
            body,
            "Bearer " + PluginServer.TOKEN,
            "application/json");
    assertThat(answer.status()).isEqualTo(200);
    return answer.body();
  }

  /** Neither the text as sent nor, when it is JSON, any string in it holds a piece. */
  private static void assertNoLeak(String text, String secret) {
    NoLeak.assertNone(text, t -> SecretForms.leaks(t, secret));
  }
}
