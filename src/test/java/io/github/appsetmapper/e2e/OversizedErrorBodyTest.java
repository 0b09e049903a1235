package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An error answer whose body passes the 10 MiB limit keeps its status: the body is dropped unread
 * past the limit, and every path that judges a status (the 502 line, retries, enrich's onMissing,
 * token calls) judges it as it judges a small one, the message saying the body was too large.
 */
class OversizedErrorBodyTest {
  private static final String HUGE = "{\"message\":\"" + "x".repeat(11 * 1024 * 1024) + "\"}";

  private static final String LIST =
      """
      name: items
      vars: {up: {default: "http://unset.invalid"}}
      defaults: {retries: 1}
      list:
        request: {url: "#{vars.up}/items"}
        items: "$[*]"
      enrich:
        detail:
          request: {url: "#{vars.up}/detail/#{item}"}
          select: "$.name"
          onMissing: drop
      parameters: {id: item, name: detail}
      """;

  private static final String TOKEN =
      """
      name: tok
      vars: {up: {default: "http://unset.invalid"}}
      secrets: {client: {env: CLIENT_SECRET}}
      list:
        request:
          url: "#{vars.up}/items"
          auth:
            oauth2:
              tokenUrl: "#{vars.up}/oauth/token"
              clientId: appset-mapper
              clientSecret: {secret: client}
        items: "$[*]"
      parameters: {id: item}
      """;

  @Test
  void theStatusIsKeptOnEveryPathThatJudgesIt(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir,
                Map.of("up", stub.url()),
                Map.of("CLIENT_SECRET", "s3cr3t-client"),
                LIST,
                TOKEN)) {
      // The list: a 500 (not retried) says its status.
      stub.on("GET /items", Reply.json(500, HUGE));
      Answer answer = plugin.getparams("items", "{}");
      assertThat(answer.status()).as(answer.body()).isEqualTo(502);
      assertThat(answer.body())
          .isEqualTo(
              "{\"error\":\"mapping 'items': list GET "
                  + stub.url()
                  + "/items: answered 500; its body passed the 10 MiB limit\"}");

      // Retries: a 503 is retried as a 503 is, and the second answer is taken.
      AtomicInteger tries = new AtomicInteger();
      stub.on(
          "GET /items",
          r -> tries.incrementAndGet() == 1 ? Reply.json(503, HUGE) : Reply.json(200, "[1,2]"));
      // Enrich: a 404 is missing (dropped by onMissing), a 500 is a 502 saying its status.
      stub.on("GET /detail/1", Reply.json(200, "{\"name\":\"one\"}"));
      stub.on("GET /detail/2", Reply.json(404, HUGE));
      answer = plugin.getparams("items", "{}");
      assertThat(answer.status() + " " + answer.body())
          .isEqualTo("200 {\"output\":{\"parameters\":[{\"id\":\"1\",\"name\":\"one\"}]}}");
      stub.on("GET /detail/2", Reply.json(500, HUGE));
      answer = plugin.getparams("items", "{}");
      assertThat(answer.status()).as(answer.body()).isEqualTo(502);
      assertThat(answer.body())
          .contains("/detail/2: answered 500; its body passed the 10 MiB limit");

      // A token call.
      stub.on("POST /oauth/token", Reply.json(500, HUGE));
      answer = plugin.getparams("tok", "{}");
      assertThat(answer.status()).as(answer.body()).isEqualTo(502);
      assertThat(answer.body())
          .contains("/oauth/token: answered 500; its body passed the 10 MiB limit");
    }
  }
}
