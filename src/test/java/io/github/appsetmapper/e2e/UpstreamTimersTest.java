package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import io.github.appsetmapper.upstream.HttpUpstream;
import io.github.appsetmapper.upstream.UpstreamOptions;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each upstream call schedules its timeout; a call that ends first must take its task out of the
 * timer's queue, or under load the queue holds one cancelled task per call made in the last timeout
 * period (and the timer thread wakes for each).
 */
class UpstreamTimersTest {
  @TempDir Path dir;

  @Test
  void theTimeoutQueueHoldsOnlyCallsInFlight() {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /items", Reply.json(200, "[1]"));
      HttpUpstream upstream = new HttpUpstream(UpstreamOptions.defaults(8, 1 << 20));
      String mapping =
          """
          name: t
          vars: {up: {default: "http://unset.invalid"}}
          list:
            request: {url: "#{vars.up}/items"}
            items: "$[*]"
          parameters: {id: item}
          """;
      try (PluginServer plugin =
          PluginServer.withUpstream(dir, upstream, Map.of("up", stub.url()), Map.of(), mapping)) {
        for (int i = 0; i < 300; i++) {
          assertThat(plugin.getparams("t", "{}").status()).isEqualTo(200);
        }
        // Every call has ended: nothing is left to time out (before the fix: 300 tasks).
        assertThat(upstream.pendingTimeouts()).isZero();
      }
      assertThat(stub.calls()).isEqualTo(300);
    }
  }

  /**
   * Scheduling a call's timeout must not wake the timer thread: with one caller, each call woke it
   * (a context switch per getparams on the CPU that answers). Its waits are counted by the JVM; it
   * may still wake about once a second.
   */
  @Test
  void aCallsTimeoutDoesNotWakeTheTimerThread() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Set<Long> others = timerThreads();
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /items", Reply.json(200, "[1]"));
      HttpUpstream upstream = new HttpUpstream(UpstreamOptions.defaults(8, 1 << 20));
      String mapping =
          """
          name: t
          vars: {up: {default: "http://unset.invalid"}}
          list:
            request: {url: "#{vars.up}/items"}
            items: "$[*]"
          parameters: {id: item}
          """;
      try (PluginServer plugin =
          PluginServer.withUpstream(dir, upstream, Map.of("up", stub.url()), Map.of(), mapping)) {
        assertThat(plugin.getparams("t", "{}").status()).isEqualTo(200);
        Set<Long> ours = timerThreads();
        ours.removeAll(others);
        assertThat(ours).hasSize(1);
        long timer = ours.iterator().next();
        long waitsBefore = threads.getThreadInfo(timer).getWaitedCount();
        long started = System.nanoTime();
        int calls = 300;
        for (int i = 0; i < calls; i++) {
          assertThat(plugin.getparams("t", "{}").status()).isEqualTo(200);
        }
        long waits = threads.getThreadInfo(timer).getWaitedCount() - waitsBefore;
        long seconds = (System.nanoTime() - started) / 1_000_000_000L;
        // Before the fix: one wait per call (300). After: about one a second of the loop.
        assertThat(waits).isLessThanOrEqualTo(2 * seconds + 10);
        assertThat(waits).isLessThan(calls);
      }
    }
  }

  private static Set<Long> timerThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().equals("upstream-timeouts"))
        .map(Thread::getId)
        .collect(Collectors.toSet());
  }
}
