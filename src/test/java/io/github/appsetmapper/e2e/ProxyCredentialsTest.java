package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.appsetmapper.server.Json;
import io.github.appsetmapper.testing.LogCapture;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import io.github.appsetmapper.upstream.HttpUpstream;
import io.github.appsetmapper.upstream.UpstreamOptions;
import io.github.appsetmapper.upstream.net.ProxySettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 21 item 11: the user info of {@code http_proxy} / {@code https_proxy} is a secret. A proxy
 * (a real HTTP server on loopback, asking for Basic proxy auth with a 407 first) that quotes the
 * {@code Proxy-Authorization} it got in its error used to put {@code Basic base64(user:pw)} into
 * the 502, explain and the log: the redactor did not know the proxy's credentials.
 */
class ProxyCredentialsTest {
  private static final String USER = "corp-user";
  private static final String PASSWORD = "pr0xy@Pass-w0rd~9Zq7";

  private static final String MAPPING =
      """
      name: p
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/items", retries: 0}
        items: "$[*]"
      parameters: {id: item}
      """;

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"http_proxy", "HTTP_PROXY"})
  void aProxyQuotingItsCredentialsLeaksThemNowhere(String variable) {
    try (LogCapture logs = new LogCapture();
        StubUpstream proxy = new StubUpstream()) {
      proxy.otherwise(
          r -> {
            String credentials = r.header("proxy-authorization");
            if (credentials == null) {
              return Reply.status(407).withHeader("Proxy-Authenticate", "Basic realm=\"corp\"");
            }
            return Reply.json(
                502,
                "{\"message\":"
                    + Json.write("cannot reach upstream.test; you sent " + credentials)
                    + "}");
          });
      // The user info percent-encoded in the variable, as a password with '@' must be.
      String url =
          proxy.url().replace("//", "//" + USER + ":" + PASSWORD.replace("@", "%40") + "@");
      ProxySettings proxies = ProxySettings.fromEnvironment(Map.of(variable, url)::get);
      try (PluginServer plugin =
          PluginServer.withUpstream(
              dir,
              new HttpUpstream(UpstreamOptions.defaults(8, 1 << 20).withProxies(proxies)),
              Map.of("up", "http://upstream.test"),
              Map.of(),
              MAPPING)) {
        Answer answer = plugin.getparams("p", "{}");
        String basic =
            "Basic "
                + Base64.getEncoder()
                    .encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
        assertThat(proxy.received().get(proxy.received().size() - 1).header("proxy-authorization"))
            .as("the proxy got the credentials")
            .isEqualTo(basic);
        assertThat(answer.status()).isEqualTo(502);
        assertThat(answer.body()).contains("answered 502 (cannot reach upstream.test; you sent ");
        String json = explain(plugin, "");
        String text = explain(plugin, "?format=text");
        String log = String.join("\n", logs.lines());
        for (String output : new String[] {answer.body(), json, text, log}) {
          DerivedSecretTest.assertNoLeak(output, PASSWORD);
          DerivedSecretTest.assertNoLeak(output, USER + ":" + PASSWORD);
          assertThat(output).doesNotContain(basic.substring("Basic ".length(), 20));
        }
      }
    }
  }

  @Test
  void aProxyUrlThatCannotBeUsedIsNamedWithoutItsUserInfo() {
    // A '/' in the password ends the authority: the old "//user:pass@" pattern kept it all.
    for (String url :
        new String[] {
          "http://corp:pa/ss-w0rd@proxy.test:notaport", "corp:pa/ss-w0rd@proxy.test:notaport"
        }) {
      assertThatThrownBy(() -> ProxySettings.fromEnvironment(Map.of("https_proxy", url)::get))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("***@proxy.test")
          .hasMessageNotContaining("pa/ss")
          .hasMessageNotContaining("corp");
    }
  }

  private static String explain(PluginServer plugin, String query) {
    Answer answer =
        plugin.send(
            "POST",
            "/mappings/p/api/v1/getparams.explain" + query,
            "{}",
            "Bearer " + PluginServer.TOKEN,
            "application/json");
    assertThat(answer.status()).isEqualTo(200);
    return answer.body();
  }
}
