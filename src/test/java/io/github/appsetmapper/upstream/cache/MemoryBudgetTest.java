package io.github.appsetmapper.upstream.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The budget's decisions, and that it reads the cache's size (taken under the cache's eviction
 * lock) only when the answer depends on it: every getparams reserves its answer's bytes.
 */
class MemoryBudgetTest {
  private final AtomicLong cached = new AtomicLong();
  private final AtomicInteger cacheReads = new AtomicInteger();

  private MemoryBudget budget(long total) {
    MemoryBudget budget = new MemoryBudget(total);
    budget.cacheBytes(
        () -> {
          cacheReads.incrementAndGet();
          return cached.get();
        });
    return budget;
  }

  @Test
  void whatFitsBesideAFullCacheDoesNotReadTheCache() {
    MemoryBudget budget = budget(2000); // the cache may hold 1000
    assertThat(budget.reserve(600)).isTrue();
    assertThat(budget.hold(new byte[400])).isTrue();
    budget.unreserve(600);
    assertThat(cacheReads).hasValue(0);
  }

  @Test
  void whatDependsOnTheCacheIsDecidedByIt() {
    MemoryBudget budget = budget(2000);
    assertThat(budget.reserve(800)).isTrue();
    cached.set(1000);
    assertThat(budget.reserve(400)).isFalse(); // 800 + 400 + 1000 > 2000
    assertThat(budget.hold(new byte[201])).isFalse();
    assertThat(budget.reserve(200)).isTrue(); // exactly 2000
    assertThat(cacheReads.get()).isPositive();
    cached.set(0);
    assertThat(budget.reserve(1000)).isTrue(); // 2000 in flight, the cache empty
    assertThat(budget.reserve(1)).isFalse();
    assertThat(budget.inUse()).isEqualTo(2000);
  }

  @Test
  void withoutACacheTheWholeBudgetIsForAnswersInFlight() {
    MemoryBudget budget = MemoryBudget.withoutCache(2000);
    assertThat(budget.reserve(2000)).isTrue();
    assertThat(budget.reserve(1)).isFalse();
  }
}
