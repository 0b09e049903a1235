package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import io.github.appsetmapper.testing.TestPki;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.KeyPair;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tls} over real HTTPS and mTLS upstreams, with a CA and certificates made here. */
class TlsTest {
  private static final TestPki CA = new TestPki("test-ca");
  private static final TestPki CLIENT_CA = new TestPki("client-ca");
  private static StubUpstream https;
  private static StubUpstream mtls;

  @TempDir Path dir;

  @BeforeAll
  static void start() {
    TestPki.Issued server = CA.server();
    https = new StubUpstream(TestPki.serverContext(server, CA, null), false);
    mtls = new StubUpstream(TestPki.serverContext(server, CA, CLIENT_CA), true);
    https.on("GET /items", Reply.json(200, "[{\"id\":1}]"));
    mtls.on("GET /items", Reply.json(200, "[{\"id\":2}]"));
  }

  @AfterAll
  static void stop() {
    https.close();
    mtls.close();
  }

  private static String mapping(String tls) {
    return """
        name: t
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request:
            url: "#{vars.up}/items"
            retries: 0
        %s
          items: "$[*]"
        parameters: {id: item.id}
        """
        .formatted(tls.isEmpty() ? "" : "    tls: " + tls);
  }

  private Answer call(StubUpstream stub, String tls) {
    try (PluginServer plugin =
        PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), mapping(tls))) {
      return plugin.getparams("t", "{}");
    }
  }

  private Path caFile(TestPki ca) {
    return TestPki.write(
        dir.resolve("ca-" + System.nanoTime() + ".pem"), TestPki.pem(ca.certificate()));
  }

  @Nested
  class ServerCertificates {
    @Test
    void aPrivateCaIsTrustedThroughCaFile() {
      Answer answer = call(https, "{caFile: " + caFile(CA) + "}");
      assertThat(answer.body()).isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"}]}}");
    }

    @Test
    void withoutItTheJvmsTrustStoreRefusesTheServer() {
      Answer answer = call(https, "");
      assertThat(answer.status()).isEqualTo(502);
      assertThat(answer.body())
          .startsWith(
              "{\"error\":\"mapping 't': list GET "
                  + https.url()
                  + "/items: TLS handshake failed:");
    }

    @Test
    void anotherCaIsRefused() {
      Answer answer = call(https, "{caFile: " + caFile(new TestPki("other-ca")) + "}");
      assertThat(answer.status()).isEqualTo(502);
      assertThat(answer.body()).contains("TLS handshake failed");
    }

    @Test
    void insecureSkipVerifyAcceptsAnyCertificate() {
      Answer answer = call(https, "{insecureSkipVerify: true}");
      assertThat(answer.body()).isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"}]}}");
    }

    @Test
    void aMissingFileIsOurFaultA500NamingIt() {
      Answer answer = call(https, "{caFile: " + dir.resolve("nope.pem") + "}");
      assertThat(answer.status()).isEqualTo(500);
      assertThat(answer.body())
          .isEqualTo(
              "{\"error\":\"mapping 't': list GET "
                  + https.url()
                  + "/items: tls: caFile "
                  + dir.resolve("nope.pem")
                  + ": no such file\"}");
    }

    @Test
    void aRotatedCaFileTakesEffectWithoutRestart() throws Exception {
      Path ca = dir.resolve("rotating-ca.pem");
      TestPki.write(ca, TestPki.pem(new TestPki("old-ca").certificate()));
      String yaml = mapping("{caFile: " + ca + "}");
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", https.url()), Map.of(), yaml)) {
        assertThat(plugin.getparams("t", "{}").status()).isEqualTo(502);
        TestPki.write(ca, TestPki.pem(CA.certificate()));
        Files.setLastModifiedTime(ca, FileTime.from(Instant.now().plusSeconds(5)));
        assertThat(plugin.getparams("t", "{}").body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"}]}}");
      }
    }
  }

  @Nested
  class ClientCertificates {
    private String clientTls(String key, TestPki.Issued client) {
      Path cert = TestPki.write(dir.resolve("client.pem"), TestPki.pem(client.certificate()));
      Path keyFile = TestPki.write(dir.resolve("client.key"), key);
      return "{caFile: " + caFile(CA) + ", certFile: " + cert + ", keyFile: " + keyFile + "}";
    }

    @Test
    void anRsaKeyInPkcs8() {
      TestPki.Issued client = CLIENT_CA.client("appset-mapper", TestPki.rsa());
      Answer answer = call(mtls, clientTls(TestPki.pkcs8(client.keys().getPrivate()), client));
      assertThat(answer.body()).isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"2\"}]}}");
    }

    @Test
    void anRsaKeyInPkcs1() {
      TestPki.Issued client = CLIENT_CA.client("appset-mapper", TestPki.rsa());
      Answer answer =
          call(mtls, clientTls(TestPki.traditional(client.keys().getPrivate()), client));
      assertThat(answer.body()).isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"2\"}]}}");
    }

    @Test
    void anEcKeyInSec1() {
      KeyPair ec = TestPki.ec();
      TestPki.Issued client = CLIENT_CA.client("appset-mapper", ec);
      Answer answer = call(mtls, clientTls(TestPki.traditional(ec.getPrivate()), client));
      assertThat(answer.body()).isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"2\"}]}}");
    }

    @Test
    void withoutACertificateTheServerRefuses() {
      Answer answer = call(mtls, "{caFile: " + caFile(CA) + "}");
      assertThat(answer.status()).isEqualTo(502);
    }

    @Test
    void aPooledConnectionMadeWithACertificateNeverServesACallWithout() throws Exception {
      TestPki.Issued client = CLIENT_CA.client("appset-mapper", TestPki.rsa());
      String withCert = clientTls(TestPki.pkcs8(client.keys().getPrivate()), client);
      String yaml =
          """
          name: t
          vars: {up: {default: "http://unset.invalid"}}
          enrich:
            first:
              request: {url: "#{vars.up}/items", retries: 0, tls: %s}
            second:
              request: {url: "#{vars.up}/items?again", retries: 0, tls: {caFile: %s}}
              onMissing: "null"
          parameters: {a: "first[0].id", b: "second[0].id"}
          """
              .formatted(withCert, caFile(CA));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", mtls.url()), Map.of(), yaml)) {
        Answer answer = plugin.getparams("t", "{}");
        assertThat(answer.status()).isEqualTo(502);
        assertThat(answer.body()).contains("enrich.second GET " + mtls.url() + "/items?again");
      }
    }
  }
}
