package io.github.appsetmapper.upstream.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.upstream.call.CachePolicy;
import io.github.appsetmapper.upstream.call.CallSettings;
import io.github.appsetmapper.upstream.call.Headers;
import io.github.appsetmapper.upstream.call.HostPolicy;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
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
    return UpstreamRequest.builder()
        .method("GET")
        .uri(URI.create("https://api.example.com/items?page=1"))
        .headers(Headers.of(List.of(new Headers.Header("Authorization", authorization))))
        .timeout(Duration.ofSeconds(5))
        .sensitiveHeaders(Set.of("authorization"))
        .hosts(HostPolicy.any())
        .settings(CallSettings.PLAIN.toBuilder().cache(POLICY).build())
        .build();
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
              plain.settings().toBuilder()
                  .tls(
                      new io.github.appsetmapper.upstream.call.TlsSettings(
                          null,
                          java.nio.file.Path.of("/c.pem"),
                          java.nio.file.Path.of("/k.pem"),
                          false))
                  .build());
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
                  throw new RequestFailure("GET https://api.example.com/items: refused");
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
      } catch (RequestFailure e) {
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

  /** A listing of two pages, ?page=1 and ?page=2, walked through one pass. */
  private static List<String> walk(ListingPass pass) throws RequestFailure {
    for (int attempt = 0; ; attempt++) {
      try {
        List<String> bodies = new java.util.ArrayList<>();
        for (int page = 1; page <= 2; page++) {
          UpstreamRequest request =
              request("Bearer t").withUri(URI.create("https://api.example.com/items?page=" + page));
          bodies.add(new String(pass.page(request).response().body(), StandardCharsets.UTF_8));
        }
        pass.finish(true);
        return bodies;
      } catch (ListingPass.Restart restart) {
        assertThat(attempt).isLessThan(3);
      }
    }
  }

  @Nested
  class Listings {
    @Test
    void aListingInFlightIsSharedWholeNeverPageByPage() throws Exception {
      java.util.concurrent.CountDownLatch pageTwoAsked = new java.util.concurrent.CountDownLatch(1);
      java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
      AtomicInteger calls = new AtomicInteger();
      int[] version = {1};
      SharedCalls shared =
          new SharedCalls(
              r -> {
                calls.incrementAndGet();
                if (r.uri().getQuery().equals("page=2")) {
                  pageTwoAsked.countDown();
                  try {
                    release.await();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                }
                return ok(r.uri().getQuery() + "@v" + version[0]);
              },
              new MemoryBudget(1 << 20),
              () -> 0L);
      UpstreamRequest first =
          request("Bearer t").withUri(URI.create("https://api.example.com/items?page=1"));
      var leader =
          java.util.concurrent.CompletableFuture.supplyAsync(
              () -> {
                try {
                  return walk(shared.open(first, Set.of()));
                } catch (RequestFailure e) {
                  throw new IllegalStateException(e);
                }
              });
      pageTwoAsked.await();
      // The upstream changes while the leader is on page 2: a second walk must not fetch a fresh
      // page 1 and join the leader's page 2; it waits and walks the leader's pages.
      version[0] = 2;
      Thread[] follower = new Thread[1];
      java.util.concurrent.CompletableFuture<List<String>> followed =
          new java.util.concurrent.CompletableFuture<>();
      follower[0] =
          new Thread(
              () -> {
                try {
                  followed.complete(walk(shared.open(first, Set.of())));
                } catch (Exception e) {
                  followed.completeExceptionally(e);
                }
              });
      follower[0].start();
      while (follower[0].getState() != Thread.State.WAITING
          && follower[0].getState() != Thread.State.TIMED_WAITING) {
        Thread.yield();
      }
      release.countDown();
      assertThat(leader.get()).startsWith("page=1@v1");
      assertThat(followed.get()).isEqualTo(leader.get());
      assertThat(calls).hasValue(2);
    }

    @Test
    void aKeptListingAnswersWholeAndALongerWalkFetchesEveryPageAgain() throws Exception {
      AtomicInteger calls = new AtomicInteger();
      SharedCalls shared =
          new SharedCalls(
              r -> ok(r.uri().getQuery() + "#" + calls.incrementAndGet()),
              new MemoryBudget(1 << 20),
              () -> 0L);
      UpstreamRequest first =
          request("Bearer t").withUri(URI.create("https://api.example.com/items?page=1"));
      // A walk of one page keeps a listing of one page.
      ListingPass one = shared.open(first, Set.of());
      assertThat(one.page(first).source()).isEqualTo(SharedCalls.Source.MISS);
      one.finish(true);
      // A walk of two pages finds page 2 missing from it: every page again, from the upstream.
      assertThat(walk(shared.open(first, Set.of()))).containsExactly("page=1#2", "page=2#3");
      assertThat(walk(shared.open(first, Set.of()))).containsExactly("page=1#2", "page=2#3");
      assertThat(calls).hasValue(3);
    }

    @Test
    void theLastGoodListingStandsInWholeWhenALaterPageFails() throws Exception {
      AtomicLong now = new AtomicLong();
      boolean[] pageTwoDown = {false};
      AtomicInteger calls = new AtomicInteger();
      SharedCalls shared =
          new SharedCalls(
              r -> {
                int call = calls.incrementAndGet();
                if (pageTwoDown[0] && r.uri().getQuery().equals("page=2")) {
                  throw new RequestFailure("GET https://api.example.com/items?page=2: refused");
                }
                return ok(r.uri().getQuery() + "#" + call);
              },
              new MemoryBudget(1 << 20),
              now::get);
      UpstreamRequest first =
          request("Bearer t").withUri(URI.create("https://api.example.com/items?page=1"));
      assertThat(walk(shared.open(first, Set.of()))).containsExactly("page=1#1", "page=2#2");
      now.set(Duration.ofSeconds(15).toNanos());
      pageTwoDown[0] = true;
      // Page 1 comes fresh (#3), page 2 fails: the kept listing answers, both of its pages.
      assertThat(walk(shared.open(first, Set.of()))).containsExactly("page=1#1", "page=2#2");
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
