package io.github.appsetmapper.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What makes a value read back from Redis trustworthy: AES-GCM over the key name and times. */
class SealTest {
  @TempDir Path dir;

  private static final String OLD = "old=" + "a".repeat(40);
  private static final String NEW = "new=" + "b".repeat(40);

  private Seal seal(String keys) throws IOException {
    Path file = dir.resolve("keys-" + keys.hashCode());
    Files.writeString(file, keys);
    return new Seal(Keys.of(file));
  }

  private static byte[] plain(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aSealedValueOpensUnderItsOwnKeyName() throws Exception {
    Seal seal = seal(OLD);
    byte[] value = seal.seal("p:listing:1", 1000, 0, 7, Seal.newVersion(), plain("rows"));
    Seal.Opened opened = seal.open("p:listing:1", value, 2000);
    assertThat(new String(opened.plain(), StandardCharsets.UTF_8)).isEqualTo("rows");
    assertThat(opened.header().seq()).isEqualTo(7);
    assertThat(opened.header().keyId()).isEqualTo("old");
    // Nothing of the plaintext is readable in the value.
    assertThat(new String(value, StandardCharsets.ISO_8859_1)).doesNotContain("rows");
  }

  @Test
  void aValueMovedToAnotherKeyDoesNotOpen() throws Exception {
    Seal seal = seal(OLD);
    byte[] value = seal.seal("p:guard:a", 1000, 0, 1, Seal.newVersion(), plain("10"));
    assertThatThrownBy(() -> seal.open("p:guard:b", value, 2000))
        .isInstanceOf(Seal.Refused.class)
        .hasMessage("tag mismatch");
  }

  @Test
  void aChangedTimeSeqOrByteDoesNotOpen() throws Exception {
    Seal seal = seal(OLD);
    byte[] value = seal.seal("k", 1000, 0, 1, Seal.newVersion(), plain("10"));
    int stored = 4 + 3; // "AM", version, id length, "old"
    for (int at : new int[] {stored, stored + 8, stored + 16, stored + 24, value.length - 1}) {
      byte[] changed = value.clone();
      changed[at] ^= 1;
      assertThatThrownBy(() -> seal.open("k", changed, 2000)).isInstanceOf(Seal.Refused.class);
    }
  }

  @Test
  void aValuePastItsExpiryIsAReplayAndRefused() throws Exception {
    Seal seal = seal(OLD);
    byte[] value = seal.seal("k", 1000, 5000, 1, Seal.newVersion(), plain("x"));
    assertThat(seal.open("k", value, 5000 + Seal.CLOCK_SLACK_MILLIS).plain()).hasSize(1);
    assertThatThrownBy(() -> seal.open("k", value, 5001 + Seal.CLOCK_SLACK_MILLIS))
        .isInstanceOf(Seal.Refused.class)
        .hasMessage("expired");
  }

  @Test
  void rotationOpensBothKeysAndSealsWithTheFirst() throws Exception {
    byte[] old = seal(OLD).seal("k", 1000, 0, 1, Seal.newVersion(), plain("x"));
    Seal both = seal(NEW + "\n" + OLD + "\n");
    assertThat(both.open("k", old, 2000).header().keyId()).isEqualTo("old");
    byte[] fresh = both.seal("k", 1000, 0, 1, Seal.newVersion(), plain("x"));
    assertThat(Seal.header(fresh).keyId()).isEqualTo("new");
    assertThatThrownBy(() -> seal(NEW).open("k", old, 2000))
        .isInstanceOf(Seal.Refused.class)
        .hasMessage("unknown key id");
    // Same id, another secret: the value does not open.
    assertThatThrownBy(() -> seal("old=" + "c".repeat(40)).open("k", old, 2000))
        .isInstanceOf(Seal.Refused.class)
        .hasMessage("tag mismatch");
  }

  @Test
  void theKeyFileIsReadAgainWhenItChanges() throws Exception {
    Path file = dir.resolve("rotating");
    Files.writeString(file, OLD);
    Keys keys = Keys.of(file);
    Seal seal = new Seal(keys);
    Files.writeString(file, NEW + "\n" + OLD);
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
    long end = System.nanoTime() + 30_000_000_000L;
    while (!keys.ring().sealing().id().equals("new") && System.nanoTime() < end) {
      Thread.sleep(50);
    }
    assertThat(Seal.header(seal.seal("k", 1, 0, 1, Seal.newVersion(), plain("x"))).keyId())
        .isEqualTo("new");
  }

  @Test
  void aKeyFileWithAShortSecretOrNoKeyIsRefusedWithoutShowingIt() {
    assertThatThrownBy(() -> KeyRing.parse("k1=short-secret\n", "keys"))
        .isInstanceOf(IOException.class)
        .hasMessage(
            "keys line 1: a key needs at least 32 characters (e.g. head -c 48 /dev/urandom |"
                + " base64)");
    assertThatThrownBy(() -> KeyRing.parse("# nothing\n\n", "keys"))
        .isInstanceOf(IOException.class)
        .hasMessage("keys: no key (one ID=SECRET per line)");
  }

  @Test
  void aBareSecretIsRefusedNamingTheLine() {
    // A base64 secret with '=' padding was read as ID=SECRET with a short secret.
    assertThatThrownBy(() -> KeyRing.parse("# keys\n" + "x".repeat(40) + "\n", "keys"))
        .isInstanceOf(IOException.class)
        .hasMessage("keys line 2: not ID=SECRET (an id, '=', then the secret)");
  }
}
