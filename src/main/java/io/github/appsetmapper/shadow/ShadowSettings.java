package io.github.appsetmapper.shadow;

/**
 * How candidates run ({@code serve --shadow-*}).
 *
 * @param threads candidates computing at once (their own executor, apart from the live requests)
 * @param queue live answers waiting for their candidate at most; beyond it a run is skipped
 * @param memoryBudget bytes of upstream answers the candidates hold at most, apart from the live
 *     budget
 * @param keep differences kept per mapping (the newest)
 * @param minHeadroomPercent a candidate does not run, nor make a call of its own, to a host whose
 *     last rate-limit headers left less than this share of its limit
 * @param maxRows rows listed per kind in one difference (counts are whole)
 */
public record ShadowSettings(
    int threads, int queue, long memoryBudget, int keep, int minHeadroomPercent, int maxRows) {
  public static final ShadowSettings DEFAULTS =
      new ShadowSettings(2, 64, 32L * 1024 * 1024, 50, 20, 20);

  public ShadowSettings {
    if (threads < 1 || queue < 1 || keep < 1 || maxRows < 1) {
      throw new IllegalArgumentException("shadow threads, queue, keep and rows must be positive");
    }
    if (minHeadroomPercent < 0 || minHeadroomPercent > 100) {
      throw new IllegalArgumentException("--shadow-min-headroom must be from 0% to 100%");
    }
    if (memoryBudget < 1024 * 1024) {
      throw new IllegalArgumentException("--shadow-memory-budget must be at least 1Mi");
    }
  }
}
