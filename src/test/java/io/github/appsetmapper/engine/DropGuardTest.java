package io.github.appsetmapper.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.appsetmapper.config.MaxDrop;
import io.github.appsetmapper.upstream.call.RequestFailure;
import org.junit.jupiter.api.Test;

/**
 * The maxDrop baselines: keyed by digests of what callers choose (so a megabyte of input costs a
 * few bytes), bounded, and every eviction counted.
 */
class DropGuardTest {
  private static final MaxDrop HALF = new MaxDrop(50, true);

  @Test
  void aBaselineIsKeptPerInputAndApplicationSetAndResetByEither() throws RequestFailure {
    DropGuard guard = new DropGuard();
    String big = "x".repeat(1024 * 1024);
    guard.check("m", HALF, big, "team-a", 10);
    guard.check("m", HALF, big, "team-b", 10);
    guard.check("m", HALF, "small", "team-a", 10);
    assertThatThrownBy(() -> guard.check("m", HALF, big, "team-a", 2))
        .isInstanceOfSatisfying(
            RequestFailure.class, e -> assertThat(e.kind()).isEqualTo(RequestFailure.Kind.GUARD))
        .hasMessageStartingWith("the answer has 2 rows, 8 fewer than the last good answer (10)");
    assertThat(guard.baselines("m")).isEqualTo(3);
    assertThat(guard.reset("m", big, "team-a")).isEqualTo(1);
    assertThat(guard.reset("m", null, "team-a")).isEqualTo(1);
    assertThat(guard.reset("m", big, null)).isEqualTo(1);
    assertThat(guard.baselines("m")).isZero();
  }

  @Test
  void theNumberOfBaselinesIsBoundedAndEvictionsAreCounted() throws RequestFailure {
    DropGuard guard = new DropGuard(100);
    for (int i = 0; i < 250; i++) {
      guard.check("m", HALF, "input-" + i, "", 10);
    }
    guard.check("m", HALF, "input-0", "", 10); // let the bound settle
    assertThat(guard.size()).isLessThanOrEqualTo(100);
    assertThat(guard.evictions()).isGreaterThanOrEqualTo(150);
  }
}
