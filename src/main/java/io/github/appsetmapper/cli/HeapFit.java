package io.github.appsetmapper.cli;

/**
 * Whether the memory budgets fit the heap the JVM was given. A budget is what the server lets
 * upstream answers hold before it refuses with a 503; if it is more than half the heap, a full
 * budget plus the server's own working set and the collector's room can end the JVM (or, in a
 * container, the kernel ends it) before the budget ever refuses: the promise "a 503, never down"
 * then rests on luck. Said once at start, as a warning, so the operator sees it before the crash.
 */
final class HeapFit {
  private HeapFit() {}

  /** The warning for these budgets under {@code maxHeap} bytes of heap; null when they fit. */
  static String warning(long memoryBudget, long shadowBudget, long maxHeap) {
    long budgets = memoryBudget + shadowBudget;
    // A little over half: the serial collector reports a 256 MiB heap as 248 MiB (one survivor
    // space is never usable), and the chart's own 128 MiB budget must not warn there.
    if (maxHeap == Long.MAX_VALUE || budgets * 20 <= maxHeap * 11) {
      return null;
    }
    return (shadowBudget > 0
            ? "--memory-budget and --shadow-memory-budget (" + mib(budgets) + " together)"
            : "--memory-budget " + mib(budgets))
        + " is more than half of the JVM's heap ("
        + mib(maxHeap)
        + "): answers that fill it can end the process before a getparams is refused; lower the"
        + " budget or raise the memory limit (the image's heap is half of it)";
  }

  private static String mib(long bytes) {
    return (bytes + (1 << 19)) / (1 << 20) + " MiB";
  }
}
