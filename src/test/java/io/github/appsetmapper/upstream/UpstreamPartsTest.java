package io.github.appsetmapper.upstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.appsetmapper.upstream.auth.TokenCache;
import io.github.appsetmapper.upstream.call.Deadline;
import io.github.appsetmapper.upstream.call.Headers;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.Token;
import io.github.appsetmapper.upstream.limits.RateLimitState;
import io.github.appsetmapper.upstream.limits.RateLimits;
import io.github.appsetmapper.upstream.limits.RateRule;
import io.github.appsetmapper.upstream.net.Addresses;
import io.github.appsetmapper.upstream.net.ProxySettings;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The pure parts of the upstream: address rules, proxy rules, rate limits, tokens, retries. */
class UpstreamPartsTest {

  @Nested
  class AddressRules {
    @ParameterizedTest(name = "{0}: default {1}, allow-link-local {2}, deny-private {3}")
    @CsvSource(
        delimiter = '|',
        value = {
          "169.254.169.254 | a link-local or cloud metadata address | ok | a link-local or cloud metadata address",
          "169.254.10.1    | a link-local or cloud metadata address | ok | a link-local or cloud metadata address",
          "fe80::1         | a link-local or cloud metadata address | ok | a link-local or cloud metadata address",
          "fd00:ec2::254   | a link-local or cloud metadata address | ok | a link-local or cloud metadata address",
          "100.100.100.200 | a link-local or cloud metadata address | ok | a link-local or cloud metadata address",
          "::ffff:169.254.169.254 | a link-local or cloud metadata address | ok | a link-local or cloud metadata address",
          "64:ff9b::a9fe:a9fe | a link-local or cloud metadata address | ok | a link-local or cloud metadata address",
          "0.0.0.0         | the unspecified address | the unspecified address | the unspecified address",
          "::              | the unspecified address | the unspecified address | the unspecified address",
          "224.0.0.1       | a multicast or broadcast address | a multicast or broadcast address | a multicast or broadcast address",
          "127.0.0.1       | ok | ok | a loopback address",
          "::1             | ok | ok | a loopback address",
          "10.0.0.1        | ok | ok | a private address",
          "172.20.1.1      | ok | ok | a private address",
          "192.168.1.1     | ok | ok | a private address",
          "100.64.0.1      | ok | ok | a private address",
          "fd12:3456::1    | ok | ok | a private address",
          "8.8.8.8         | ok | ok | ok",
          "2001:4860:4860::8888 | ok | ok | ok",
        })
    void judged(String address, String byDefault, String allowLinkLocal, String denyPrivate)
        throws Exception {
      InetAddress parsed = InetAddress.getByName(address);
      assertThat(verdict(Addresses.DEFAULT, parsed)).isEqualTo(byDefault);
      assertThat(verdict(new Addresses(true, false), parsed)).isEqualTo(allowLinkLocal);
      assertThat(verdict(new Addresses(false, true), parsed)).isEqualTo(denyPrivate);
    }

    private String verdict(Addresses policy, InetAddress address) {
      String refusal = policy.refusal(address);
      return refusal == null ? "ok" : refusal;
    }
  }

  @Nested
  class ProxyRules {
    private ProxySettings settings(Map<String, String> env) {
      return ProxySettings.fromEnvironment(env::get);
    }

    @Test
    void lowerCaseWinsAndSchemesPickTheirProxy() {
      ProxySettings proxies =
          settings(
              Map.of(
                  "http_proxy", "proxy-a:3128",
                  "HTTP_PROXY", "http://proxy-b:3128",
                  "HTTPS_PROXY", "http://user:p%40ss@proxy-c:8080"));
      assertThat(proxies.proxyFor("http", "api.example.com", 80).toString())
          .isEqualTo("http://proxy-a:3128");
      ProxySettings.Proxy https = proxies.proxyFor("https", "api.example.com", 443);
      assertThat(https.toString()).isEqualTo("http://proxy-c:8080");
      assertThat(https.username()).isEqualTo("user");
      assertThat(https.password()).isEqualTo("p@ss");
    }

    @Test
    void allProxyIsTheFallbackAndAMissingPortIs1080AsInCurl() {
      ProxySettings proxies = settings(Map.of("ALL_PROXY", "corp-proxy"));
      assertThat(proxies.proxyFor("https", "x.example.com", 443).toString())
          .isEqualTo("http://corp-proxy:1080");
    }

    @ParameterizedTest(name = "no_proxy {0}: {1}:{2} bypasses {3}")
    @CsvSource({
      "'*', api.example.com, 443, true",
      "'example.com', api.example.com, 443, true",
      "'.example.com', example.com, 443, true",
      "'example.com', notexample.com, 443, false",
      "'*.example.com', a.b.example.com, 443, true",
      "'10.0.0.0/8', 10.1.2.3, 80, true",
      "'10.0.0.0/8', 11.1.2.3, 80, false",
      "'api.example.com:8443', api.example.com, 8443, true",
      "'api.example.com:8443', api.example.com, 443, false",
      "'localhost, 127.0.0.1', 127.0.0.1, 80, true",
      "'[::1]', ::1, 80, true",
    })
    void noProxy(String noProxy, String host, int port, boolean bypass) {
      ProxySettings proxies =
          settings(
              Map.of("https_proxy", "http://p:1", "http_proxy", "http://p:1", "NO_PROXY", noProxy));
      assertThat(
              proxies.proxyFor(port == 443 || port == 8443 ? "https" : "http", host, port) == null)
          .isEqualTo(bypass);
    }

    @Test
    void onlyHttpProxiesAreUnderstoodAndTheErrorHidesCredentials() {
      assertThatThrownBy(() -> settings(Map.of("https_proxy", "socks5://u:secret@p:1080")))
          .hasMessage("proxy 'socks5://***@p:1080': only http:// proxies are supported");
    }
  }

  @Nested
  class RateLimitHeaders {
    private final Instant now = Instant.parse("2026-01-05T10:00:00Z");

    private RateLimitState observe(String... headers) {
      RateLimits limits = new RateLimits();
      List<Headers.Header> fields = new java.util.ArrayList<>();
      for (int i = 0; i < headers.length; i += 2) {
        fields.add(new Headers.Header(headers[i], headers[i + 1]));
      }
      limits.observe("Registry-1.Docker.io", Headers.of(fields), now);
      return limits.snapshot().get("registry-1.docker.io");
    }

    @Test
    void dockerHubsWindowSuffixIsIgnored() {
      RateLimitState state =
          observe("ratelimit-limit", "100;w=21600", "RateLimit-Remaining", "76;w=21600");
      assertThat(state).isEqualTo(new RateLimitState("registry-1.docker.io", 100L, 76L, null, now));
    }

    @Test
    void resetIsAUnixTimeOrSecondsFromNow() {
      assertThat(observe("X-RateLimit-Reset", "1893456000").reset())
          .isEqualTo(Instant.ofEpochSecond(1893456000));
      assertThat(observe("RateLimit-Reset", "30").reset()).isEqualTo(now.plusSeconds(30));
    }

    @Test
    void theCombinedHeaderOfTheIetfDraft() {
      assertThat(observe("RateLimit", "limit=10, remaining=5, reset=7"))
          .isEqualTo(new RateLimitState("registry-1.docker.io", 10L, 5L, now.plusSeconds(7), now));
      assertThat(observe("RateLimit", "\"default\";r=50;t=30").remaining()).isEqualTo(50);
    }

    @Test
    void noHeadersNoEntry() {
      assertThat(observe("Content-Type", "application/json")).isNull();
    }

    @Test
    void ratesAreWrittenAsPerSecondPerMinuteOrForOneHost() {
      assertThat(RateRule.parse("10/s")).isEqualTo(new RateRule(null, 10));
      assertThat(RateRule.parse("api.github.com=300/m"))
          .isEqualTo(new RateRule("api.github.com", 5));
      assertThat(RateRule.parse("*.example.com=2").matches("a.example.com")).isTrue();
      assertThatThrownBy(() -> RateRule.parse("fast"))
          .hasMessage("invalid rate limit 'fast'; write it like 10/s, 300/m or api.github.com=5/s");
    }
  }

  @Nested
  class Tokens {
    private Instant now = Instant.parse("2026-01-05T10:00:00Z");
    private final Clock clock =
        new Clock() {
          @Override
          public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
          }

          @Override
          public Clock withZone(java.time.ZoneId zone) {
            return this;
          }

          @Override
          public Instant instant() {
            return now;
          }
        };

    @Test
    void reusedUntilShortlyBeforeExpiryThenFetchedAgain() throws Exception {
      TokenCache cache = new TokenCache(clock, new io.github.appsetmapper.secret.Redactor());
      AtomicInteger fetches = new AtomicInteger();
      TokenCache.Fetch fetch =
          () -> Token.of("t" + fetches.incrementAndGet(), now, Duration.ofHours(1));
      assertThat(cache.get("k", Deadline.NONE, fetch).value()).isEqualTo("t1");
      now = now.plus(Duration.ofMinutes(58));
      assertThat(cache.get("k", Deadline.NONE, fetch).value()).isEqualTo("t1");
      // A minute before expiry (a tenth of the lifetime, at most a minute) it is replaced.
      now = now.plus(Duration.ofSeconds(61));
      assertThat(cache.get("k", Deadline.NONE, fetch).value()).isEqualTo("t2");
      assertThat(cache.peek("other")).isNull();
    }

    @Test
    void theRedactorHoldsOnlyTheTokensTheCacheHoldsAndThoseInTheirGracePeriod() throws Exception {
      java.util.concurrent.atomic.AtomicLong nanos = new java.util.concurrent.atomic.AtomicLong();
      io.github.appsetmapper.secret.Redactor redactor =
          new io.github.appsetmapper.secret.Redactor(nanos::get, Duration.ofMinutes(10));
      TokenCache cache = new TokenCache(clock, redactor);
      AtomicInteger fetches = new AtomicInteger();
      // A token an hour long on each of 5 keys, fetched again every hour for two days.
      for (int hour = 0; hour < 48; hour++) {
        for (int key = 0; key < 5; key++) {
          cache.get(
              "k" + key,
              Deadline.NONE,
              () -> Token.of("token-" + fetches.incrementAndGet(), now, Duration.ofHours(1)));
        }
        now = now.plus(Duration.ofHours(1));
        nanos.addAndGet(Duration.ofHours(1).toNanos());
      }
      assertThat(fetches.get()).isEqualTo(240);
      assertThat(redactor.redact("token-240")).isEqualTo("***");
      // The 5 live tokens; the ones replaced an hour ago are past the grace period.
      assertThat(redactor.size()).isEqualTo(5);
      assertThat(redactor.redact("token-200")).isEqualTo("token-200");
      // A token nobody asks for again is let go once past its refresh time.
      now = now.plus(Duration.ofHours(2));
      nanos.addAndGet(Duration.ofHours(2).toNanos());
      cache.get("other", Deadline.NONE, () -> Token.of("token-other", now, null));
      nanos.addAndGet(Duration.ofMinutes(11).toNanos());
      assertThat(redactor.size()).isEqualTo(1);
    }

    @Test
    void aShortLivedTokenIsRefreshedATenthBeforeItsEnd() {
      Token token = Token.of("x", now, Duration.ofSeconds(60));
      assertThat(token.fresh(now.plusSeconds(53))).isTrue();
      assertThat(token.fresh(now.plusSeconds(54))).isFalse();
      assertThat(Token.of("x", now, null).fresh(now.plus(Duration.ofDays(365)))).isTrue();
      assertThat(token.toString()).isEqualTo("Token[***]");
    }

    @Test
    void aRefreshDropsOnlyTheRefusedTokenAndAFailedFetchIsNotCached() throws Exception {
      TokenCache cache = new TokenCache(clock, new io.github.appsetmapper.secret.Redactor());
      Token first = cache.get("k", Deadline.NONE, () -> Token.of("t1", now, null));
      Token second = cache.refresh("k", first, Deadline.NONE, () -> Token.of("t2", now, null));
      // A late 401 for t1 must not throw t2 away.
      Token third = cache.refresh("k", first, Deadline.NONE, () -> Token.of("t3", now, null));
      assertThat(List.of(first.value(), second.value(), third.value()))
          .containsExactly("t1", "t2", "t2");
      assertThatThrownBy(
              () ->
                  cache.get(
                      "f",
                      Deadline.NONE,
                      () -> {
                        throw new RequestFailure("down");
                      }))
          .hasMessage("down");
      assertThat(cache.get("f", Deadline.NONE, () -> Token.of("ok", now, null)).value())
          .isEqualTo("ok");
    }
  }

  @Nested
  class RetryAfter {
    private final Instant now = Instant.parse("2026-01-05T10:00:00Z");
    private final RetryingUpstream retrying = new RetryingUpstream(r -> null, () -> now);

    @Test
    void secondsOrAnHttpDate() {
      assertThat(retrying.retryAfter("7")).isEqualTo(Duration.ofSeconds(7));
      assertThat(retrying.retryAfter("Mon, 05 Jan 2026 10:00:30 GMT"))
          .isEqualTo(Duration.ofSeconds(30));
      assertThat(retrying.retryAfter("Mon, 05 Jan 2026 09:00:00 GMT")).isEqualTo(Duration.ZERO);
      assertThat(retrying.retryAfter("soon")).isNull();
      assertThat(retrying.retryAfter(null)).isNull();
    }

    @Test
    void backoffDoublesWithJitterAndIsCapped() {
      for (int i = 0; i < 50; i++) {
        assertThat(RetryingUpstream.backoff(1).toMillis()).isBetween(100L, 200L);
        assertThat(RetryingUpstream.backoff(2).toMillis()).isBetween(200L, 400L);
        assertThat(RetryingUpstream.backoff(9).toMillis()).isBetween(2500L, 5000L);
      }
    }
  }
}
