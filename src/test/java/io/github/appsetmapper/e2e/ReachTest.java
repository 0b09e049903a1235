package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import io.github.appsetmapper.testing.TestPki;
import io.github.appsetmapper.testing.TestProxy;
import io.github.appsetmapper.upstream.HttpUpstream;
import io.github.appsetmapper.upstream.UpstreamOptions;
import io.github.appsetmapper.upstream.call.HostPolicy;
import io.github.appsetmapper.upstream.net.Addresses;
import io.github.appsetmapper.upstream.net.ProxySettings;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hc.client5.http.impl.InMemoryDnsResolver;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where calls may go: addresses judged after DNS on every hop (names resolved by an injected
 * resolver, so nothing leaves loopback), the server's --allowed-hosts, and proxies from the
 * environment with host checks on the requested name.
 */
class ReachTest {
  @TempDir Path dir;

  private static final String ONE =
      """
      name: r
      vars: {up: {default: "http://unset.invalid"}}
      allowedHosts: %s
      list:
        request: {url: "#{vars.up}/items", retries: 0}
        items: "$[*]"
      parameters: {id: item}
      """;

  private static InMemoryDnsResolver dns(Map<String, String> names) throws Exception {
    InMemoryDnsResolver resolver = new InMemoryDnsResolver();
    for (Map.Entry<String, String> name : names.entrySet()) {
      resolver.add(name.getKey(), InetAddress.getByName(name.getValue()));
    }
    return resolver;
  }

  private String call(UpstreamOptions options, String up, String allowedHosts) {
    try (PluginServer plugin =
        PluginServer.withUpstream(
            dir,
            new HttpUpstream(options),
            Map.of("up", up),
            Map.of(),
            ONE.formatted(allowedHosts))) {
      return plugin.getparams("r", "{}").body();
    }
  }

  @Nested
  class Addresses_ {
    private final UpstreamOptions defaults = UpstreamOptions.defaults(8, 1 << 20);

    @Test
    void aNameThatResolvesToTheMetadataAddressIsRefused() throws Exception {
      String body =
          call(
              defaults.withDnsResolver(dns(Map.of("metadata.test", "169.254.169.254"))),
              "http://metadata.test",
              "[]");
      assertThat(body)
          .isEqualTo(
              "{\"error\":\"mapping 'r': list GET http://metadata.test/items: refused:"
                  + " metadata.test resolves to 169.254.169.254, a link-local or cloud metadata"
                  + " address (--allow-link-local allows it)\"}");
    }

    @Test
    void literalsAreJudgedTooIpv4AndAwsIpv6() {
      assertThat(call(defaults, "http://169.254.169.254", "[]"))
          .isEqualTo(
              "{\"error\":\"mapping 'r': list GET http://169.254.169.254/items: refused:"
                  + " 169.254.169.254 is a link-local or cloud metadata address"
                  + " (--allow-link-local allows it)\"}");
      assertThat(call(defaults, "http://[fd00:ec2::254]", "[]"))
          .contains("refused: [fd00:ec2::254] is a link-local or cloud metadata address");
      assertThat(call(defaults, "http://0.0.0.0:9", "[]"))
          .contains("refused: 0.0.0.0 is the unspecified address");
    }

    @Test
    void aRedirectToTheMetadataServiceIsRefusedAtItsHop() throws Exception {
      try (StubUpstream stub = new StubUpstream()) {
        stub.on(
            "GET /items",
            Reply.status(302).withHeader("Location", "http://metadata.test/latest/meta-data/"));
        String body =
            call(
                defaults.withDnsResolver(
                    dns(Map.of("metadata.test", "169.254.169.254", "127.0.0.1", "127.0.0.1"))),
                stub.url(),
                "[]");
        assertThat(body)
            .isEqualTo(
                "{\"error\":\"mapping 'r': list GET http://metadata.test/latest/meta-data/:"
                    + " refused: metadata.test resolves to 169.254.169.254, a link-local or cloud"
                    + " metadata address (--allow-link-local allows it)\"}");
      }
    }

    @Test
    void denyPrivateNetworksRefusesLoopbackAndPrivateRanges() throws Exception {
      UpstreamOptions strict =
          defaults
              .withAddresses(new Addresses(false, true))
              .withDnsResolver(dns(Map.of("intranet.test", "10.1.2.3", "127.0.0.1", "127.0.0.1")));
      try (StubUpstream stub = new StubUpstream()) {
        stub.on("GET /items", Reply.json(200, "[1]"));
        assertThat(call(strict, stub.url(), "[]"))
            .contains(
                "refused: 127.0.0.1 is a loopback address (refused by --deny-private-networks)");
        assertThat(stub.calls()).isZero();
        assertThat(call(defaults, stub.url(), "[]"))
            .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"}]}}");
      }
      assertThat(call(strict, "http://intranet.test", "[]"))
          .contains(
              "refused: intranet.test resolves to 10.1.2.3, a private address (refused by"
                  + " --deny-private-networks)");
    }

    @Test
    void theServersAllowedHostsHoldWhateverTheMappingSays() {
      try (StubUpstream stub = new StubUpstream()) {
        stub.on("GET /items", Reply.json(200, "[1]"));
        UpstreamOptions server = defaults.withServerHosts(new HostPolicy(List.of("*.example.com")));
        assertThat(call(server, stub.url(), "[]"))
            .isEqualTo(
                "{\"error\":\"mapping 'r': list GET "
                    + stub.url()
                    + "/items: host '127.0.0.1' is not in the server's --allowed-hosts\"}");
        assertThat(stub.calls()).isZero();
      }
    }
  }

  @Nested
  class Proxies {
    @Test
    void httpGoesThroughTheProxyWhichAloneResolvesTheName() throws Exception {
      try (StubUpstream stub = new StubUpstream();
          TestProxy proxy = new TestProxy(Map.of("upstream.test", "127.0.0.1"), null)) {
        stub.on("GET /items", Reply.json(200, "[1]"));
        ProxySettings proxies =
            ProxySettings.fromEnvironment(Map.of("HTTP_PROXY", proxy.url())::get);
        String up = "http://upstream.test:" + stub.port();
        assertThat(call(UpstreamOptions.defaults(8, 1 << 20).withProxies(proxies), up, "[]"))
            .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"}]}}");
        assertThat(proxy.targets()).containsExactly("GET " + up + "/items");
      }
    }

    @Test
    void hostChecksApplyToTheRequestedNameThroughTheProxy() throws Exception {
      try (TestProxy proxy = new TestProxy(Map.of("upstream.test", "127.0.0.1"), null)) {
        ProxySettings proxies =
            ProxySettings.fromEnvironment(Map.of("http_proxy", proxy.url())::get);
        assertThat(
                call(
                    UpstreamOptions.defaults(8, 1 << 20).withProxies(proxies),
                    "http://upstream.test:1",
                    "[api.example.com]"))
            .isEqualTo(
                "{\"error\":\"mapping 'r': list GET http://upstream.test:1/items: host"
                    + " 'upstream.test' is not in allowedHosts\"}");
        assertThat(proxy.targets()).isEmpty();
      }
    }

    @Test
    void noProxyGoesDirect() throws Exception {
      try (StubUpstream stub = new StubUpstream();
          TestProxy proxy = new TestProxy(Map.of(), null)) {
        stub.on("GET /items", Reply.json(200, "[1]"));
        ProxySettings proxies =
            ProxySettings.fromEnvironment(
                Map.of("HTTP_PROXY", proxy.url(), "NO_PROXY", "localhost,.test,127.0.0.0/8")::get);
        assertThat(
                call(UpstreamOptions.defaults(8, 1 << 20).withProxies(proxies), stub.url(), "[]"))
            .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"}]}}");
        assertThat(proxy.targets()).isEmpty();
      }
    }

    @Test
    void httpsTunnelsThroughConnectWithProxyCredentials() throws Exception {
      TestPki ca = new TestPki("proxy-test-ca");
      try (StubUpstream stub =
              new StubUpstream(TestPki.serverContext(ca.server(), ca, null), false);
          TestProxy proxy = new TestProxy(Map.of(), "corp:pr0xy-pass")) {
        stub.on("GET /items", Reply.json(200, "[1]"));
        Path caFile = TestPki.write(dir.resolve("ca.pem"), TestPki.pem(ca.certificate()));
        ProxySettings proxies =
            ProxySettings.fromEnvironment(
                Map.of("HTTPS_PROXY", proxy.url().replace("//", "//corp:pr0xy-pass@"))::get);
        String yaml =
            ONE.formatted("[]")
                .replace("retries: 0}", "retries: 0, tls: {caFile: " + caFile + "}}");
        try (PluginServer plugin =
            PluginServer.withUpstream(
                dir,
                new HttpUpstream(UpstreamOptions.defaults(8, 1 << 20).withProxies(proxies)),
                Map.of("up", "https://localhost:" + stub.port()),
                Map.of(),
                yaml)) {
          assertThat(plugin.getparams("r", "{}").body())
              .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"}]}}");
        }
        assertThat(proxy.targets()).containsExactly("CONNECT localhost:" + stub.port());
      }
    }
  }
}
