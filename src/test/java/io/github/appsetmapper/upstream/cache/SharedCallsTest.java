package io.github.appsetmapper.upstream.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.upstream.CallSettings;
import io.github.appsetmapper.upstream.Deadline;
import io.github.appsetmapper.upstream.Headers;
import io.github.appsetmapper.upstream.HostPolicy;
import io.github.appsetmapper.upstream.UpstreamException;
import io.github.appsetmapper.upstream.UpstreamRequest;
import io.github.appsetmapper.upstream.UpstreamResponse;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The cache's key, its clock-driven freshness and staleness, and the memory budget. */
class SharedCallsTest {
  private static final CachePolicy POLICY =
      new CachePolicy(Duration.ofSeconds(10), Duration.ofSeconds(20));

  private static UpstreamRequest request(String authorization) {
    return new UpstreamRequest(
        "GET",
        URI.create("https://api.example.com/items?page=1"),
        Headers.of(List.of(new Headers.Header("Authorization", authorization))),
        null,
        Duration.ofSeconds(5),
        Set.of("authorization"),
        HostPolicy.any(),
        new CallSettings(null, 0, null, Deadline.NONE, POLICY));
  }

  private static UpstreamResponse ok(String body) {
    return new UpstreamResponse(
        200, Headers.of(List.of()), body.getBytes(StandardCharsets.UTF_8), URI.create("x:/"));
  }

  @Nested
  class Keys {
    @Test
    void theKeyDependsOnTheCredentialButNeverHoldsIt() {
      String one = CacheKey.of(request("Bearer s3cret-one"));
      assertThat(one).isEqualTo(CacheKey.of(request("Bearer s3cret-one")));
      assertThat(one).isNotEqualTo(CacheKey.of(request("Bearer s3cret-two")));
      assertThat(one).doesNotContain("s3cret").hasSize(64);
    }

    @Test
    void aClientCertificateIsACredentialToo() {
      UpstreamRequest plain = request("x");
      UpstreamRequest withCert =
          plain.withSettings(
              new CallSettings(
                  null,
                  0,
                  new io.github.appsetmapper.upstream.tls.TlsSettings(
                      null,
                      java.nio.file.Path.of("/c.pem"),
                      java.nio.file.Path.of("/k.pem"),
                      false),
                  Deadline.NONE,
                  POLICY));
      assertThat(CacheKey.of(plain)).isNotEqualTo(CacheKey.of(withCert));
    }
  }

  @Nested
  class Freshness {
    @Test
    void freshThenStaleOnlyWhenTheUpstreamFailsThenGone() throws Exception {
      AtomicLong now = new AtomicLong();
      AtomicInteger calls = new AtomicInteger();
      boolean[] down = {false};
      SharedCalls shared =
          new SharedCalls(
              r -> {
                calls.incrementAndGet();
                if (down[0]) {
                  throw new UpstreamException("GET https://api.example.com/items: refused");
                }
                return ok("[1]");
              },
              new MemoryBudget(1 << 20),
              now::get);
      UpstreamRequest request = request("Bearer t");
      assertThat(shared.exchange(request, Set.of()).source()).isEqualTo(SharedCalls.Source.MISS);
      now.set(Duration.ofSeconds(9).toNanos());
      assertThat(shared.exchange(request, Set.of()).source()).isEqualTo(SharedCalls.Source.HIT);
      assertThat(calls).hasValue(1);
      down[0] = true;
      now.set(Duration.ofSeconds(29).toNanos());
      SharedCalls.Outcome stale = shared.exchange(request, Set.of());
      assertThat(stale.source()).isEqualTo(SharedCalls.Source.STALE);
      assertThat(stale.staleBecause()).isEqualTo("GET https://api.example.com/items: refused");
      now.set(Duration.ofSeconds(31).toNanos());
      try {
        shared.exchange(request, Set.of());
        throw new AssertionError("expected the failure after staleIfError");
      } catch (UpstreamException e) {
        assertThat(e).hasMessage("GET https://api.example.com/items: refused");
      }
      assertThat(calls).hasValue(3);
    }

    @Test
    void invalidationMakesTheNextCallAskAgainForItsOwnersOnly() throws Exception {
      AtomicInteger calls = new AtomicInteger();
      SharedCalls shared =
          new SharedCalls(
              r -> {
                calls.incrementAndGet();
                return ok("[1]");
              },
              new MemoryBudget(1 << 20),
              () -> 0L);
      shared.exchange(request("a"), Set.of("mapping:one"));
      shared.exchange(request("b"), Set.of("mapping:two"));
      assertThat(shared.invalidate(owners -> owners.contains("mapping:one"))).isEqualTo(1);
      shared.exchange(request("a"), Set.of("mapping:one"));
      shared.exchange(request("b"), Set.of("mapping:two"));
      assertThat(calls).hasValue(3);
    }
  }

  @Nested
  class Budget {
    @Test
    void anAnswerHeldByManyCountsOnceAndIsGivenBackByTheLast() {
      MemoryBudget budget = new MemoryBudget(2048);
      byte[] big = new byte[1500];
      assertThat(budget.hold(big)).isTrue();
      assertThat(budget.hold(big)).isTrue();
      assertThat(budget.inFlightBytes()).isEqualTo(1500);
      assertThat(budget.hold(new byte[600])).isFalse();
      budget.release(big);
      assertThat(budget.hold(new byte[600])).isFalse();
      budget.release(big);
      assertThat(budget.inFlightBytes()).isZero();
      assertThat(budget.hold(new byte[600])).isTrue();
    }
  }
}
