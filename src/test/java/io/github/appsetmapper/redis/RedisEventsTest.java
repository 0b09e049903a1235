package io.github.appsetmapper.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Messages between replicas: taken once, only when they open, never from the replica itself. */
class RedisEventsTest {
  @TempDir Path dir;

  private Seal seal(String name) throws Exception {
    Path file = dir.resolve(name);
    Files.writeString(file, "k1=" + "m".repeat(40));
    return new Seal(Keys.of(file));
  }

  @Test
  void aMessageIsTakenOnceAndAReplayOrForgeryIsNot() throws Exception {
    RedisStats stats = new RedisStats();
    RedisEvents sender = new RedisEvents(seal("a"), "p:events", stats);
    RedisEvents receiver = new RedisEvents(seal("b"), "p:events", stats);
    List<RedisEvents.Event> got = new ArrayList<>();
    receiver.listen(got::add);

    byte[] reset = sender.message(RedisEvents.Kind.RESET, "pulls", "", "");
    receiver.received(reset);
    receiver.received(reset); // replayed: the same message again
    assertThat(got)
        .containsExactly(new RedisEvents.Event(RedisEvents.Kind.RESET, List.of("pulls", "", "")));

    byte[] forged = reset.clone();
    forged[forged.length - 20] ^= 1;
    receiver.received(forged);
    byte[] otherChannel =
        new RedisEvents(seal("c"), "q:events", stats).message(RedisEvents.Kind.RESET, "x", "", "");
    receiver.received(otherChannel);
    assertThat(got).hasSize(1);
    assertThat(stats.integrityFailures(RedisStats.Sealed.MESSAGE)).isEqualTo(2);

    // Oversized: not even opened, counted.
    receiver.received(new byte[RedisEvents.MAX_MESSAGE_BYTES + 1]);
    assertThat(stats.integrityFailures(RedisStats.Sealed.MESSAGE)).isEqualTo(3);

    // What a replica sent comes back to it on the channel: not acted on twice.
    sender.listen(got::add);
    sender.received(sender.message(RedisEvents.Kind.INVALIDATED, "mapping:pulls"));
    assertThat(got).hasSize(1);
  }
}
