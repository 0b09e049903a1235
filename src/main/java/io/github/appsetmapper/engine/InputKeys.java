package io.github.appsetmapper.engine;

import io.github.appsetmapper.digest.Sha256;
import io.github.appsetmapper.json.JsonCodec;
import java.util.Map;

/** A short, stable key for an input: SHA-256 of its JSON with keys sorted. */
final class InputKeys {
  private InputKeys() {}

  static String of(Map<String, Object> input) {
    return Sha256.hex(JsonCodec.writeSorted(input)).substring(0, 32);
  }
}
