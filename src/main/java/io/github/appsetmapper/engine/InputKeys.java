package io.github.appsetmapper.engine;

import io.github.appsetmapper.json.JsonCodec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/** A short, stable key for an input: SHA-256 of its JSON with keys sorted. */
final class InputKeys {
  private InputKeys() {}

  static String of(Map<String, Object> input) {
    try {
      byte[] json = JsonCodec.writeSorted(input).getBytes(StandardCharsets.UTF_8);
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(json))
          .substring(0, 32);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("cannot key an input", e);
    }
  }
}
