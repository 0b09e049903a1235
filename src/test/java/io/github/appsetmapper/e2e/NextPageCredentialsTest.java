package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Received;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Credentials belong to an origin (scheme, host, port). A header that carries one (a literal {@code
 * Authorization}, {@code Proxy-Authorization} or {@code Cookie}, a header made from a secret) is
 * dropped on a redirect to another origin that {@code allowedHosts} allows, as curl and browsers
 * drop it, and a next page there (a body's next URL, a {@code Link} header, a cursor that is a URL)
 * is refused rather than sent them. The same origin keeps them.
 */
class NextPageCredentialsTest {
  private static final String HEADERS =
      """
          headers:
            Authorization: "Bearer literal-token-123"
            Proxy-Authorization: "Basic cHJveHk6cGFzcw=="
            Cookie: "session=literal-cookie"
            X-Secret-Key: "#{secret.key}"
            X-Trace: "trace-1"
      """;

  private static String mapping(String name, String url, String paginate) {
    return """
        name: %s
        allowedHosts: ["127.0.0.1"]
        vars: {up: {default: "http://unset.invalid"}}
        secrets: {key: {env: KEY}}
        list:
          request:
            url: "%s"
        %s
          items: "$.data[*]"
          %s
        parameters: {id: item.id}
        """
        .formatted(
            name,
            url,
            name.equals("literal")
                ? HEADERS.replaceAll("(?m)^.*(X-Secret-Key|Cookie|Proxy).*\n", "")
                : HEADERS,
            paginate);
  }

  private static final List<String> CREDENTIALS =
      List.of("authorization", "proxy-authorization", "cookie", "x-secret-key");

  private static void noCredentials(Received request) {
    for (String name : CREDENTIALS) {
      assertThat(request.header(name)).as(name + " at " + request.rawUri()).isNull();
    }
  }

  @Test
  void aRedirectToAnotherOriginDropsEveryCredentialHeaderAndTheSameOriginKeepsThem(
      @TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        StubUpstream other = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir,
                Map.of("up", stub.url()),
                Map.of("KEY", "secret-key-4567"),
                mapping("away", "#{vars.up}/away", ""),
                mapping("here", "#{vars.up}/here", ""))) {
      stub.on("GET /away", Reply.status(302).withHeader("Location", other.url() + "/items"));
      other.on("GET /items", Reply.json(200, "{\"data\":[{\"id\":1}]}"));
      stub.on("GET /here", Reply.status(302).withHeader("Location", "/items"));
      stub.on("GET /items", Reply.json(200, "{\"data\":[{\"id\":2}]}"));
      Answer away = plugin.getparams("away", "{}");
      assertThat(away.status()).as(away.body()).isEqualTo(200);
      noCredentials(other.received().get(0));
      assertThat(other.received().get(0).header("x-trace")).isEqualTo("trace-1");
      Answer here = plugin.getparams("here", "{}");
      assertThat(here.status()).as(here.body()).isEqualTo(200);
      Received kept = stub.received().get(stub.received().size() - 1);
      assertThat(kept.rawUri()).isEqualTo("/items");
      assertThat(kept.header("authorization")).isEqualTo("Bearer literal-token-123");
      assertThat(kept.header("cookie")).isEqualTo("session=literal-cookie");
      assertThat(kept.header("x-secret-key")).isEqualTo("secret-key-4567");
    }
  }

  @Test
  void aNextPageOnAnotherOriginIsNeverSentTheCredentialsInAnyMode(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        StubUpstream other = new StubUpstream()) {
      Map<String, String> modes = new java.util.LinkedHashMap<>();
      // A literal Authorization alone, no secret: a credential by its name.
      modes.put("literal", "paginate: {next: \"$.next\"}");
      modes.put("body", "paginate: {next: \"$.next\"}");
      modes.put("link", "paginate: {linkHeader: next}");
      modes.put("cursor", "paginate: {cursor: {from: \"$.next\"}}");
      String[] yamls =
          modes.entrySet().stream()
              .map(
                  m ->
                      mapping(
                          m.getKey(),
                          m.getKey().equals("cursor")
                              ? "#{page.cursor ?: vars.up + '/cursor'}"
                              : "#{vars.up}/" + m.getKey().replace("literal", "body"),
                          m.getValue()))
              .toArray(String[]::new);
      // Each lists page 2 on the other origin, which answers it (and would see the headers).
      String next = other.url() + "/items?page=2";
      stub.on("GET /body", Reply.json(200, "{\"data\":[{\"id\":1}],\"next\":\"" + next + "\"}"));
      stub.on("GET /cursor", Reply.json(200, "{\"data\":[{\"id\":1}],\"next\":\"" + next + "\"}"));
      stub.on(
          "GET /link",
          Reply.json(200, "{\"data\":[{\"id\":1}]}")
              .withHeader("Link", "<" + next + ">; rel=\"next\""));
      other.on("GET /items", Reply.json(200, "{\"data\":[{\"id\":2}]}"));
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir, Map.of("up", stub.url()), Map.of("KEY", "secret-key-4567"), yamls)) {
        for (String mode : modes.keySet()) {
          Answer answer = plugin.getparams(mode, "{}");
          assertThat(other.received()).as(mode).isEmpty();
          assertThat(answer.status()).as(mode + ": " + answer.body()).isEqualTo(502);
          assertThat(answer.body())
              .as(mode)
              .contains(
                  "next page on another origin '"
                      + other.url()
                      + "' refused: the request carries credentials");
        }
      }
    }
  }

  /**
   * A secret sent in the body, a query value or the URL is a credential of the first page's origin
   * as a header is: a next page on another origin is refused, in the {@code next} mode and where a
   * cursor is the URL (the query made from the secret is added to whatever origin it names). A
   * request made from no secret follows the same link: the refusal is the secret's.
   */
  @Test
  void aSecretInTheBodyQueryOrUrlKeepsTheWalkToItsOrigin(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        StubUpstream other = new StubUpstream()) {
      Map<String, String> requests = new java.util.LinkedHashMap<>();
      requests.put(
          "body",
          "url: \"#{vars.up}/items\"\n    method: POST\n    body: {token: \"#{secret.key}\"}");
      requests.put("query", "url: \"#{vars.up}/items\"\n    query: {key: \"#{secret.key}\"}");
      requests.put("url", "url: \"#{vars.up}/items/#{secret.key}\"");
      requests.put(
          "cursor",
          "url: \"#{page.cursor ?: vars.up + '/items'}\"\n    query: {key: \"#{secret.key}\"}");
      requests.put("plain", "url: \"#{vars.up}/items\"\n    query: {key: \"public-value\"}");
      String next = other.url() + "/more";
      String[] yamls =
          requests.entrySet().stream()
              .map(
                  r ->
                      """
                      name: %s
                      allowedHosts: ["127.0.0.1"]
                      vars: {up: {default: "http://unset.invalid"}}
                      secrets: {key: {env: KEY}}
                      list:
                        request:
                          %s
                        items: "$.data[*]"
                        paginate: %s
                      parameters: {id: item.id}
                      """
                          .formatted(
                              r.getKey(),
                              r.getValue(),
                              r.getKey().equals("cursor")
                                  ? "{cursor: {from: \"$.next\"}}"
                                  : "{next: \"$.next\"}"))
              .toArray(String[]::new);
      stub.otherwise(r -> Reply.json(200, "{\"data\":[{\"id\":1}],\"next\":\"" + next + "\"}"));
      other.otherwise(r -> Reply.json(200, "{\"data\":[{\"id\":2}]}"));
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir, Map.of("up", stub.url()), Map.of("KEY", "secret-key-4567"), yamls)) {
        for (String name : List.of("body", "query", "url", "cursor")) {
          Answer answer = plugin.getparams(name, "{}");
          assertThat(other.received()).as(name).isEmpty();
          assertThat(answer.status()).as(name + ": " + answer.body()).isEqualTo(502);
          assertThat(answer.body())
              .as(name)
              .contains(
                  "next page on another origin '"
                      + other.url()
                      + "' refused: the request carries credentials ("
                      + (name.equals("cursor") || name.equals("query") ? "query.key" : name)
                      + ")")
              .doesNotContain("secret-key-4567");
        }
        Answer plain = plugin.getparams("plain", "{}");
        assertThat(plain.status()).as(plain.body()).isEqualTo(200);
        assertThat(other.received()).hasSize(1);
      }
    }
  }

  /**
   * The 502 names the other origin by scheme, host and port: never the user info an upstream wrote
   * into its next link (a password may stand there), which the redactor does not know.
   */
  @Test
  void theRefusalNamesTheOriginWithoutTheLinksUserInfo(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        StubUpstream other = new StubUpstream()) {
      String next = "http://leak:pa55word-9f3e@127.0.0.1:" + other.port() + "/items?page=2";
      stub.on("GET /body", Reply.json(200, "{\"data\":[{\"id\":1}],\"next\":\"" + next + "\"}"));
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir,
              Map.of("up", stub.url()),
              Map.of("KEY", "secret-key-4567"),
              mapping("literal", "#{vars.up}/body", "paginate: {next: \"$.next\"}"))) {
        Answer answer = plugin.getparams("literal", "{}");
        assertThat(answer.status()).as(answer.body()).isEqualTo(502);
        assertThat(answer.body())
            .contains("next page on another origin '" + other.url() + "' refused")
            .doesNotContain("pa55word")
            .doesNotContain("leak:");
        assertThat(other.received()).isEmpty();
      }
    }
  }
}
