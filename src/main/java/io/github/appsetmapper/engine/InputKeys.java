package io.github.appsetmapper.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.github.appsetmapper.compile.JsonPaths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/** A short, stable key for an input: SHA-256 of its JSON with keys sorted. */
final class InputKeys {
  private InputKeys() {}

  static String of(Map<String, Object> input) {
    try {
      byte[] json =
          JsonPaths.MAPPER
              .writer()
              .with(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
              .writeValueAsBytes(input);
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(json))
          .substring(0, 32);
    } catch (JsonProcessingException | NoSuchAlgorithmException e) {
      throw new IllegalStateException("cannot key an input", e);
    }
  }
}
