package io.github.appsetmapper.json;

import java.util.HashMap;
import java.util.Map;

/**
 * Keys and short texts repeat in every entry of an index: one copy of each is kept (at most {@value
 * #MAX_SHARED} of them, each at most {@value #MAX_SHARED_LENGTH} characters), and its heap is
 * counted the first time only.
 */
final class SharedTexts {
  private static final int MAX_SHARED = 4096;
  private static final int MAX_SHARED_LENGTH = 64;

  private final Map<String, String> shared = new HashMap<>();

  /** The copy of {@code text} to keep, or null when it is new: then count it, and it is kept. */
  String known(String text) {
    if (text.length() > MAX_SHARED_LENGTH) {
      return null;
    }
    String known = shared.get(text);
    if (known == null && shared.size() < MAX_SHARED) {
      shared.put(text, text);
    }
    return known;
  }
}
