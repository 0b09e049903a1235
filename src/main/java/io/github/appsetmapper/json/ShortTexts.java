package io.github.appsetmapper.json;

import java.nio.charset.StandardCharsets;

/**
 * The last string made for each of a few thousand short ASCII byte runs (keys, versions, names
 * repeat in every entry of an index), so that BlockYamlReader does not make one per occurrence: a
 * fixed table, so its memory is bounded whatever the document.
 */
final class ShortTexts {
  private static final int SLOTS = 4096;
  private static final int MAX_LENGTH = 32;

  private final String[] slots = new String[SLOTS];

  /** The ASCII text of {@code b[from, to)}. */
  String get(byte[] b, int from, int to) {
    int length = to - from;
    if (length > MAX_LENGTH) {
      return new String(b, from, length, StandardCharsets.ISO_8859_1);
    }
    int hash = length;
    for (int i = from; i < to; i++) {
      hash = 31 * hash + b[i];
    }
    int slot = (hash ^ (hash >>> 12)) & (SLOTS - 1);
    String known = slots[slot];
    if (known != null && same(known, b, from, length)) {
      return known;
    }
    String text = new String(b, from, length, StandardCharsets.ISO_8859_1);
    slots[slot] = text;
    return text;
  }

  private static boolean same(String known, byte[] b, int from, int length) {
    if (known.length() != length) {
      return false;
    }
    for (int i = 0; i < length; i++) {
      if (known.charAt(i) != b[from + i]) {
        return false;
      }
    }
    return true;
  }
}
