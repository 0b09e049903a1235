package io.github.appsetmapper.digest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class Sha256Test {
  @Test
  void answersTheStandardsVectors() {
    // FIPS 180-2, appendix B.1 and the empty message.
    assertEquals(
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", Sha256.hex("abc"));
    assertEquals(
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", Sha256.hex(""));
  }

  @Test
  void eachFreshDigestIsItsOwn() throws Exception {
    MessageDigest one = Sha256.fresh();
    MessageDigest two = Sha256.fresh();
    assertNotSame(one, two);
    one.update("half of a message".getBytes(StandardCharsets.UTF_8));
    // A digest left half-fed by one caller does not leak into another's.
    assertEquals(Sha256.hex("abc"), HexFormat.of().formatHex(two.digest("abc".getBytes())));
    assertEquals(Sha256.hex("abc"), Sha256.hex("abc"));
  }

  @Test
  void threadsTakingDigestsAtOnceEachGetTheirOwnAnswer() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Boolean>> all = new ArrayList<>();
      for (int i = 0; i < 64; i++) {
        String text = "text " + i;
        String expected =
            HexFormat.of()
                .formatHex(
                    MessageDigest.getInstance("SHA-256")
                        .digest(text.getBytes(StandardCharsets.UTF_8)));
        Callable<Boolean> same =
            () -> {
              for (int n = 0; n < 200; n++) {
                if (!Sha256.hex(text).equals(expected)) {
                  return false;
                }
              }
              return true;
            };
        all.add(pool.submit(same));
      }
      for (Future<Boolean> each : all) {
        assertEquals(true, each.get());
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
