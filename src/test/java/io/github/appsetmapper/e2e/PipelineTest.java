package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import io.undertow.util.HttpString;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pipeline over real HTTP: list, pagination, enrich, ordering, types, the HTTP client. */
class PipelineTest {
  @TempDir Path dir;

  private static String rows(int n) {
    StringBuilder out = new StringBuilder("[");
    for (int i = 1; i <= n; i++) {
      out.append(i > 1 ? "," : "")
          .append("{\"id\":")
          .append(i)
          .append(",\"repo\":\"r")
          .append(i % 3)
          .append("\"}");
    }
    return out.append("]").toString();
  }

  @Nested
  class Enrich {
    private static final String YAML =
        """
        name: fan
        concurrency: 4
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/rows"}
          items: "$[*]"
        enrich:
          detail:
            request: {url: "#{vars.up}/detail/#{item.id}"}
            select: "$.n"
          shared:
            request: {url: "#{vars.up}/shared/#{item.repo}"}
            select: "$.repo"
        parameters:
          id: item.id
          n: detail
          repo: shared
        """;

    @Test
    void rowsRunInParallelWithinTheBoundAndIdenticalCallsAreMadeOnce() {
      try (StubUpstream stub = new StubUpstream()) {
        stub.on("GET /rows", Reply.json(200, rows(20)));
        stub.otherwise(
            r -> {
              String last = r.rawUri().substring(r.rawUri().lastIndexOf('/') + 1);
              return r.rawUri().startsWith("/detail/")
                  ? Reply.json(200, "{\"n\":" + last + "}").delayed(100)
                  : Reply.json(200, "{\"repo\":\"" + last + "\"}").delayed(50);
            });
        try (PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), YAML)) {
          Answer answer = plugin.getparams("fan", "{}");
          assertThat(answer.status()).as(answer.body()).isEqualTo(200);
          assertThat(answer.body())
              .startsWith(
                  "{\"output\":{\"parameters\":[{\"id\":\"1\",\"n\":\"1\",\"repo\":\"r1\"},{\"id\":\"2\",\"n\":\"2\",\"repo\":\"r2\"}");
          // In parallel, and never more than the bound (how many overlap is the machine's call).
          assertThat(stub.maxInFlight()).isBetween(2, 4);
          // 1 list call, 20 distinct detail calls, 3 distinct shared calls (r0, r1, r2).
          assertThat(stub.calls()).isEqualTo(1 + 20 + 3);
        }
      }
    }

    @Test
    void onMissingDropNullAndErrorAndExplode() {
      String yaml =
          """
          name: missing
          input:
            mode: {enum: [drop, "null", error], default: drop}
          vars: {up: {default: "http://unset.invalid"}}
          list:
            request: {url: "#{vars.up}/rows"}
            items: "$[*]"
          enrich:
            drop:
              request: {url: "#{vars.up}/maybe/#{item.id}"}
              select: "$.tags"
              onMissing: drop
            nulled:
              request: {url: "#{vars.up}/maybe/#{item.id}"}
              select: "$.owner.name"
              onMissing: "null"
            tag:
              request: {url: "#{vars.up}/maybe/#{item.id}"}
              select: "$.tags"
              explode: true
          parameters:
            id: item.id
            owner: nulled
            tag: tag
          """;
      try (StubUpstream stub = new StubUpstream()) {
        stub.on("GET /rows", Reply.json(200, rows(3)));
        stub.on(
            "GET /maybe/1",
            Reply.json(200, "{\"tags\":[\"a\",\"b\"],\"owner\":{\"name\":\"ann\"}}"));
        stub.on("GET /maybe/2", Reply.json(404, "{}"));
        stub.on("GET /maybe/3", Reply.json(200, "{\"tags\":[]}"));
        try (PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
          Answer answer = plugin.getparams("missing", "{}");
          // Row 2 is dropped (404), row 3 explodes into nothing; row 1 explodes into two rows.
          assertThat(answer.body())
              .isEqualTo(
                  "{\"output\":{\"parameters\":[{\"id\":\"1\",\"owner\":\"ann\",\"tag\":\"a\"},{\"id\":\"1\",\"owner\":\"ann\",\"tag\":\"b\"}]}}");
          // Three steps, one URL per row: each distinct call made once.
          assertThat(stub.calls()).isEqualTo(1 + 3);
        }
      }
    }

    @Test
    void aMissingValueIsAnErrorByDefault() {
      String yaml =
          """
          name: strict
          vars: {up: {default: "http://unset.invalid"}}
          enrich:
            digest:
              request: {method: HEAD, url: "#{vars.up}/v2/app/manifests/main"}
              value: "response.headers['Docker-Content-Digest']"
          parameters: {digest: digest}
          """;
      try (StubUpstream stub = new StubUpstream()) {
        stub.on("HEAD /v2/app/manifests/main", Reply.status(200));
        try (PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
          Answer answer = plugin.getparams("strict", "{}");
          assertThat(answer.status()).isEqualTo(502);
          assertThat(answer.body())
              .isEqualTo(
                  "{\"error\":\"mapping 'strict': enrich.digest HEAD "
                      + stub.url()
                      + "/v2/app/manifests/main: value 'response.headers['Docker-Content-Digest']' is null\"}");
        }
      }
    }
  }

  @Nested
  class Ordering {
    @Test
    void filterSortDistinctLimitAndTypes() {
      String yaml =
          """
          name: order
          keepTypes: true
          vars: {up: {default: "http://unset.invalid"}}
          list:
            request: {url: "#{vars.up}/rows"}
            items: "$[*]"
          filter: "item.id != 5"
          sortBy: item.id
          sortOrder: desc
          distinctBy: item.repo
          limit: 2
          parameters:
            id: item.id
            big: "10000000.0 * item.id"
            ok: "item.id > 2"
            tags: "{item.repo, 1.5, true}"
          """;
      try (StubUpstream stub = new StubUpstream()) {
        stub.on("GET /rows", Reply.json(200, rows(6)));
        try (PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
          // ids 6,4,3,2,1 after the filter and the sort; distinct repos r0 (6), r1 (4), r0 (3)
          // dropped...
          assertThat(plugin.getparams("order", "{}").body())
              .isEqualTo(
                  "{\"output\":{\"parameters\":["
                      + "{\"id\":6,\"big\":60000000,\"ok\":true,\"tags\":[\"r0\",1.5,true]},"
                      + "{\"id\":4,\"big\":40000000,\"ok\":true,\"tags\":[\"r1\",1.5,true]}]}}");
        }
      }
    }

    @Test
    void scalarsAreStringsByDefaultWrittenPlainly() {
      String yaml =
          """
          name: strings
          parameters:
            big: "10000000.0"
            huge: "12345678901234L"
            ok: "true"
            nothing: "null"
            list: "{1, 2.50, false, null}"
            map: "{n: 1e7}"
          """;
      try (PluginServer plugin = PluginServer.withYaml(dir, Map.of(), Map.of(), yaml)) {
        assertThat(plugin.getparams("strings", "{}").body())
            .isEqualTo(
                "{\"output\":{\"parameters\":[{\"big\":\"10000000\",\"huge\":\"12345678901234\",\"ok\":\"true\","
                    + "\"nothing\":null,\"list\":[\"1\",\"2.5\",\"false\",null],\"map\":{\"n\":\"10000000\"}}]}}");
      }
    }
  }

  @Nested
  class Pagination {
    private static final String YAML =
        """
        name: pages
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request:
            url: "#{vars.up}/items"
            query: {per_page: "2"}
          items: "$[*]"
          paginate: {linkHeader: next, maxPages: 5}
        parameters: {id: item.id}
        """;

    @Test
    void linkHeaderPagesJoinedInOrderRelativeLinksResolved() {
      try (StubUpstream stub = new StubUpstream()) {
        stub.on(
            "GET /items",
            r ->
                switch (r.rawUri()) {
                  case "/items?per_page=2" ->
                      Reply.json(200, "[{\"id\":1},{\"id\":2}]")
                          .withHeader(
                              "Link",
                              "<"
                                  + stub.url()
                                  + "/items?per_page=2&page=2>; rel=\"next\", <"
                                  + stub.url()
                                  + "/items?per_page=2&page=3>; rel=\"last\"");
                  case "/items?per_page=2&page=2" ->
                      Reply.json(200, "[{\"id\":3},{\"id\":4}]")
                          .withHeader(
                              "Link",
                              "</items?per_page=2&page=3>;rel=\"next\",</items?per_page=2&page=1>;rel=\"first\"");
                  default -> Reply.json(200, "[{\"id\":5}]");
                });
        try (PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), YAML)) {
          assertThat(plugin.getparams("pages", "{}").body())
              .isEqualTo(
                  "{\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"2\"},{\"id\":\"3\"},{\"id\":\"4\"},{\"id\":\"5\"}]}}");
          assertThat(stub.calls()).isEqualTo(3);
        }
      }
    }

    @Test
    void aNextLinkToAnotherHostIsRefused() {
      try (StubUpstream stub = new StubUpstream();
          StubUpstream other = new StubUpstream()) {
        stub.on(
            "GET /items",
            Reply.json(200, "[{\"id\":1}]")
                .withHeader("Link", "<" + other.url() + "/steal>; rel=\"next\""));
        try (PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), YAML)) {
          Answer answer = plugin.getparams("pages", "{}");
          assertThat(answer.status()).isEqualTo(502);
          assertThat(answer.body())
              .isEqualTo(
                  "{\"error\":\"mapping 'pages': list GET "
                      + stub.url()
                      + "/items?per_page=2: next page on another origin '"
                      + other.url()
                      + "' refused; list its host in allowedHosts to follow it\"}");
          assertThat(other.calls()).isZero();
        }
      }
    }

    @Test
    void nextUrlFromTheBody() {
      String yaml =
          """
          name: bodypages
          vars: {up: {default: "http://unset.invalid"}}
          list:
            request: {url: "#{vars.up}/values"}
            items: "$.values[*]"
            paginate: {next: "$.next"}
          parameters: {name: item.name}
          """;
      try (StubUpstream stub = new StubUpstream()) {
        stub.on(
            "GET /values",
            r ->
                r.rawUri().contains("page=2")
                    ? Reply.json(200, "{\"values\":[{\"name\":\"b\"}],\"pagelen\":1}")
                    : Reply.json(
                        200,
                        "{\"values\":[{\"name\":\"a\"}],\"next\":\""
                            + stub.url()
                            + "/values?page=2\"}"));
        try (PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
          assertThat(plugin.getparams("bodypages", "{}").body())
              .isEqualTo("{\"output\":{\"parameters\":[{\"name\":\"a\"},{\"name\":\"b\"}]}}");
        }
      }
    }
  }

  @Nested
  class HttpClient {
    private static final String YAML =
        """
        name: client
        vars: {up: {default: "http://unset.invalid"}}
        secrets: {api: {env: API_TOKEN}}
        defaults:
          timeout: 600ms
          auth: {bearer: {secret: api}}
        enrich:
          got:
            request:
              method: POST
              url: "#{vars.up}/#{input.path}"
              body:
                count: "#{input.count}"
                label: "n=#{input.count}"
                list: ["#{input.path}", 2]
            value: "response.body"
        input:
          path: {required: true}
          count: {type: number, default: 3}
        parameters: {got: "#json(got)"}
        """;

    private PluginServer plugin(StubUpstream stub) {
      return PluginServer.withYaml(
          dir, Map.of("up", stub.url()), Map.of("API_TOKEN", "tok-123456"), YAML);
    }

    private Answer call(PluginServer plugin, String path) {
      return plugin.getparams(
          "client", "{\"input\":{\"parameters\":{\"path\":\"" + path + "\",\"count\":5}}}");
    }

    @Test
    void bodyTemplatesKeepTypesAndAreSentAsJson() {
      try (StubUpstream stub = new StubUpstream()) {
        stub.on("POST /echo", r -> Reply.json(200, r.bodyText()));
        try (PluginServer plugin = plugin(stub)) {
          assertThat(call(plugin, "echo").body())
              .isEqualTo(
                  "{\"output\":{\"parameters\":[{\"got\":\"{\\\"count\\\":5,\\\"label\\\":\\\"n=5\\\",\\\"list\\\":[\\\"echo\\\",2]}\"}]}}");
          assertThat(stub.received().get(0).header("content-type")).startsWith("application/json");
        }
      }
    }

    @Test
    void gzipIsDecompressedAndTheCapCountsDecompressedBytes() {
      try (StubUpstream stub = new StubUpstream()) {
        stub.on(
            "POST /small",
            Reply.custom(
                exchange -> gzip(exchange, "{\"ok\":true}".getBytes(StandardCharsets.UTF_8))));
        // 11 MiB of zeros compress to about 11 KiB: the cap must count what it inflates to.
        // Compressed once, before the call: compressing 11 MiB inside the 600 ms timeout made
        // the test depend on how busy the machine is.
        byte[] zeros = gzipped(new byte[11 * 1024 * 1024]);
        stub.on("POST /bomb", Reply.custom(exchange -> sendGzipped(exchange, zeros)));
        try (PluginServer plugin = plugin(stub)) {
          assertThat(call(plugin, "small").body())
              .isEqualTo("{\"output\":{\"parameters\":[{\"got\":\"{\\\"ok\\\":true}\"}]}}");
          assertThat(stub.received().get(0).header("accept-encoding")).contains("gzip");
          Answer bomb = call(plugin, "bomb");
          assertThat(bomb.status()).isEqualTo(502);
          assertThat(bomb.body()).contains("response larger than 10485760 bytes");
        }
      }
    }

    @Test
    void aSlowlySentBodyTimesOut() {
      try (StubUpstream stub = new StubUpstream()) {
        stub.on(
            "POST /drip",
            Reply.custom(
                exchange -> {
                  exchange.setStatusCode(200);
                  exchange
                      .getResponseHeaders()
                      .put(new HttpString("Content-Type"), "application/json");
                  OutputStream out = exchange.getOutputStream();
                  out.write('[');
                  for (int i = 0; i < 30; i++) {
                    out.write(("" + i + ",").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    Thread.sleep(100);
                  }
                  out.write("0]".getBytes(StandardCharsets.UTF_8));
                  exchange.endExchange();
                }));
        try (PluginServer plugin = plugin(stub)) {
          // The body drips for 3 s, a byte every 100 ms: a 504 proves the 600 ms timeout covers
          // the whole answer, not each read. How long it took is the machine's business.
          Answer answer = call(plugin, "drip");
          assertThat(answer.status()).isEqualTo(504);
          assertThat(answer.body())
              .isEqualTo(
                  "{\"error\":\"mapping 'client': enrich.got POST "
                      + stub.url()
                      + "/drip: timed out after 600 ms\"}");
        }
      }
    }

    @Test
    void redirectsKeepCredentialsOnlyOnTheSameOrigin() {
      try (StubUpstream stub = new StubUpstream();
          StubUpstream other = new StubUpstream()) {
        stub.on("POST /moved", Reply.status(307).withHeader("Location", "/here"));
        stub.on(
            "POST /here", r -> Reply.json(200, "{\"auth\":\"" + r.header("authorization") + "\"}"));
        stub.on("POST /away", Reply.status(308).withHeader("Location", other.url() + "/there"));
        stub.on("POST /seeother", Reply.status(303).withHeader("Location", other.url() + "/there"));
        other.on(
            "GET /there", r -> Reply.json(200, "{\"auth\":\"" + r.header("authorization") + "\"}"));
        try (PluginServer plugin = plugin(stub)) {
          // Kept on the same origin: the upstream got it. Echoed into the answer, it is refused
          // (a secret never reaches Argo CD: SecretEchoTest).
          Answer moved = call(plugin, "moved");
          assertThat(
                  stub.received().stream()
                      .filter(r -> r.rawUri().startsWith("/here"))
                      .findFirst()
                      .orElseThrow()
                      .header("authorization"))
              .isEqualTo("Bearer tok-123456");
          assertThat(moved.status()).isEqualTo(502);
          assertThat(moved.body()).contains("parameter 'got'").doesNotContain("tok-123456");
          // A body can hold credentials: it never follows a redirect to another origin.
          Answer away = call(plugin, "away");
          assertThat(away.status()).isEqualTo(502);
          assertThat(away.body())
              .isEqualTo(
                  "{\"error\":\"mapping 'client': enrich.got POST "
                      + stub.url()
                      + "/away: redirect to another origin '"
                      + other.url()
                      + "' with the request body refused\"}");
          assertThat(other.calls()).isZero();
          // A 303 turns it into a GET without the body: followed, without the credentials.
          Answer seeOther = call(plugin, "seeother");
          assertThat(seeOther.status()).isEqualTo(200);
          assertThat(seeOther.body()).contains("\\\"auth\\\":\\\"null\\\"");
          assertThat(other.received().get(0).header("authorization")).isNull();
        }
      }
    }

    @Test
    void redirectsOutsideAllowedHostsAreRefused() {
      String yaml =
          """
          name: fenced
          allowedHosts: ["127.0.0.1"]
          vars: {up: {default: "http://unset.invalid"}}
          enrich:
            got:
              request: {url: "#{vars.up}/go"}
          parameters: {got: "#json(got)"}
          """;
      try (StubUpstream stub = new StubUpstream()) {
        stub.on(
            "GET /go",
            Reply.status(302).withHeader("Location", "http://169.254.169.254/latest/meta-data/"));
        try (PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
          assertThat(plugin.getparams("fenced", "{}").body())
              .isEqualTo(
                  "{\"error\":\"mapping 'fenced': enrich.got GET "
                      + stub.url()
                      + "/go: redirect to host '169.254.169.254' refused (not in allowedHosts)\"}");
        }
      }
    }

    @Test
    void aFirstUrlOutsideAllowedHostsIsRefused() {
      String yaml =
          """
          name: fenced2
          allowedHosts: ["*.example.com"]
          vars: {up: {default: "http://unset.invalid"}}
          enrich:
            got:
              request: {url: "#{vars.up}/go"}
          parameters: {got: "#json(got)"}
          """;
      try (StubUpstream stub = new StubUpstream();
          PluginServer plugin =
              PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
        assertThat(plugin.getparams("fenced2", "{}").body())
            .isEqualTo(
                "{\"error\":\"mapping 'fenced2': enrich.got GET "
                    + stub.url()
                    + "/go: host '127.0.0.1' is not in allowedHosts\"}");
        assertThat(stub.calls()).isZero();
      }
    }
  }

  @Nested
  class Auth {
    @Test
    void basicAndHeaderAuthCarryTheSecret() {
      String yaml =
          """
          name: auths
          vars: {up: {default: "http://unset.invalid"}}
          secrets:
            pw: {env: PW}
            key: {env: KEY}
          enrich:
            basic:
              request:
                url: "#{vars.up}/basic"
                auth: {basic: {username: "bot-#{applicationSetName}", password: {secret: pw}}}
              value: "response.status"
            header:
              request:
                url: "#{vars.up}/header"
                headers: {X-Api-Key: "overridden by auth"}
                auth: {header: {name: X-Api-Key, secret: key}}
              value: "response.status"
          parameters: {basic: basic, header: header}
          """;
      try (StubUpstream stub = new StubUpstream().otherwise(r -> Reply.json(200, "{}"));
          PluginServer plugin =
              PluginServer.withYaml(
                  dir,
                  Map.of("up", stub.url()),
                  Map.of("PW", "pa:ss-w0rd", "KEY", "k-123456"),
                  yaml)) {
        Answer answer = plugin.getparams("auths", "{\"applicationSetName\":\"team-a\"}");
        assertThat(answer.body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"basic\":\"200\",\"header\":\"200\"}]}}");
        assertThat(stub.received())
            .extracting(
                r -> r.rawUri() + " " + r.header("authorization") + " " + r.header("x-api-key"))
            .containsExactly(
                "/basic Basic "
                    + java.util.Base64.getEncoder()
                        .encodeToString("bot-team-a:pa:ss-w0rd".getBytes(StandardCharsets.UTF_8))
                    + " null",
                "/header null k-123456");
      }
    }
  }

  private static void gzip(io.undertow.server.HttpServerExchange exchange, byte[] content)
      throws Exception {
    sendGzipped(exchange, gzipped(content));
  }

  private static byte[] gzipped(byte[] content) {
    ByteArrayOutputStream compressed = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(compressed)) {
      gz.write(content);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return compressed.toByteArray();
  }

  private static void sendGzipped(io.undertow.server.HttpServerExchange exchange, byte[] body)
      throws Exception {
    exchange.setStatusCode(200);
    exchange.getResponseHeaders().put(new HttpString("Content-Type"), "application/json");
    exchange.getResponseHeaders().put(new HttpString("Content-Encoding"), "gzip");
    exchange.getOutputStream().write(body);
    exchange.endExchange();
  }
}
