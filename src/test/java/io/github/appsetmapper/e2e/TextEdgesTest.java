package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Text that cannot travel as written is refused with one line, never sent mangled and never a 500:
 * characters beyond Latin-1 in a header, half of a surrogate pair in JSON; and {@code split} gives
 * a list as every other step expects (red team LOW b, h, i).
 */
class TextEdgesTest {
  private static final String HEADERS =
      """
      name: headers
      input:
        name: {required: true}
      vars: {up: {default: "http://unset.invalid"}}
      secrets: {api: {env: EDGE_TOKEN}}
      list:
        request:
          url: "#{vars.up}/items"
          headers: {X-Name: "#{input.name}"}
          auth: {bearer: {secret: api}}
        items: "$[*]"
      parameters: {id: item.id}
      """;

  @Test
  void splitGivesAListThatOtherStepsRead(@TempDir Path dir) {
    String yaml =
        """
        name: split
        input:
          s: {default: "a,b,c"}
        parameters:
          n: "input.s.split(',').size()"
          first: "input.s.split(',')[0]"
          has: "input.s.split(',').contains('b')"
          parts: "input.s.split(',')"
        keepTypes: true
        """;
    try (PluginServer plugin = PluginServer.withYaml(dir, Map.of(), Map.of(), yaml)) {
      Answer answer = plugin.getparams("split", "{}");
      assertThat(answer.status()).as(answer.body()).isEqualTo(200);
      assertThat(answer.body())
          .isEqualTo(
              "{\"output\":{\"parameters\":[{\"n\":3,\"first\":\"a\",\"has\":true,"
                  + "\"parts\":[\"a\",\"b\",\"c\"]}]}}");
    }
  }

  @Test
  void aHeaderValueBeyondLatin1IsRefusedNotSentAsQuestionMarks(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir, Map.of("up", stub.url()), Map.of("EDGE_TOKEN", "plain-token"), HEADERS)) {
      stub.on("GET /items", Reply.json(200, "[{\"id\":1}]"));
      Answer answer =
          plugin.getparams("headers", "{\"input\":{\"parameters\":{\"name\":\"\u20acuro\"}}}");
      assertThat(answer.status()).as(answer.body()).isEqualTo(400);
      assertThat(answer.body())
          .contains(
              "headers.X-Name: a header value cannot hold a character beyond Latin-1 (it would be"
                  + " sent as '?')");
      assertThat(stub.calls()).isZero();
      // Latin-1 itself goes as it is.
      assertThat(
              plugin
                  .getparams("headers", "{\"input\":{\"parameters\":{\"name\":\"caf\u00e9\"}}}")
                  .status())
          .isEqualTo(200);
    }
  }

  @Test
  void aSecretBeyondLatin1InAHeaderIsNamedNotSent(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir,
                Map.of("up", stub.url()),
                Map.of("EDGE_TOKEN", "t\u00f6k\u20acn-value"),
                HEADERS)) {
      stub.on("GET /items", Reply.json(200, "[{\"id\":1}]"));
      Answer answer = plugin.getparams("headers", "{\"input\":{\"parameters\":{\"name\":\"x\"}}}");
      assertThat(answer.status()).as(answer.body()).isEqualTo(500);
      assertThat(answer.body())
          .isEqualTo(
              "{\"error\":\"mapping 'headers': secret 'api' cannot be sent in a header: it holds a"
                  + " character beyond Latin-1 (it would be sent as '?'); percent-encode it, or"
                  + " send it in the query or the body\"}");
      assertThat(stub.calls()).isZero();
    }
  }

  /**
   * A header template made from a secret that cannot be sent is this server's problem, a 500 as
   * with {@code auth}: it was a 502, as if the upstream had failed (an outside tester's find).
   */
  @Test
  void aHeaderTemplateMadeFromABadSecretIsA500(@TempDir Path dir) {
    String mapping =
        HEADERS
            .replace(
                "headers: {X-Name: \"#{input.name}\"}",
                "headers: {PRIVATE-TOKEN: \"#{secret.api}\"}")
            .replace("          auth: {bearer: {secret: api}}\n", "");
    for (String token : new String[] {"line\nbreak-token", "t\u00f6k\u20acn-value"}) {
      try (StubUpstream stub = new StubUpstream();
          PluginServer plugin =
              PluginServer.withYaml(
                  dir, Map.of("up", stub.url()), Map.of("EDGE_TOKEN", token), mapping)) {
        stub.on("GET /items", Reply.json(200, "[{\"id\":1}]"));
        Answer answer =
            plugin.getparams("headers", "{\"input\":{\"parameters\":{\"name\":\"x\"}}}");
        assertThat(answer.status()).as(answer.body()).isEqualTo(500);
        assertThat(answer.body())
            .startsWith(
                "{\"error\":\"mapping 'headers': list.headers.PRIVATE-TOKEN: a header value cannot hold")
            .contains("it is made from a secret, whose value cannot be sent in a header")
            .doesNotContain("break-token")
            .doesNotContain("n-value");
        assertThat(stub.calls()).isZero();
      }
    }
  }

  @Test
  void halfASurrogatePairInTheRequestIsA400AndFromUpstreamA502(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir, Map.of("up", stub.url()), Map.of("EDGE_TOKEN", "plain-token"), HEADERS)) {
      Answer input =
          plugin.getparams("headers", "{\"input\":{\"parameters\":{\"name\":\"a\\ud800b\"}}}");
      assertThat(input.status()).as(input.body()).isEqualTo(400);
      assertThat(input.body())
          .isEqualTo(
              "{\"error\":\"the request body has a string holding half of a surrogate pair"
                  + " (\\\\ud800 alone), which is not Unicode text (line 1, column 32)\"}");
      stub.on("GET /items", Reply.json(200, "[{\"id\":\"\\udc00\"}]"));
      Answer upstream =
          plugin.getparams("headers", "{\"input\":{\"parameters\":{\"name\":\"x\"}}}");
      assertThat(upstream.status()).as(upstream.body()).isEqualTo(502);
      assertThat(upstream.body()).contains("which is not Unicode text");
    }
  }
}
