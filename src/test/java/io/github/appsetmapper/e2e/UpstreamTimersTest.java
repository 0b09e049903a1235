package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import io.github.appsetmapper.upstream.HttpUpstream;
import io.github.appsetmapper.upstream.UpstreamOptions;
import java.nio.file.Path;
import java.util.Map;
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
}
