package io.github.appsetmapper.replay;

import java.util.List;

/**
 * The one rule of {@code test}, {@code run --replay} and {@code serve --replay}: which mapping a
 * test file tests among those loaded, and why it tests none, in one line.
 */
final class TestedMapping {
  private TestedMapping() {}

  /**
   * Why a file naming {@code mapping} (null: none) tests none of {@code loaded} (the names loaded
   * from {@code source}), or null. No mapping loaded at all (the file deleted) says so, where the
   * list of names found was empty ({@code found: }).
   */
  static String notTesting(String mapping, List<String> loaded, Object source) {
    if (mapping != null) {
      return loaded.contains(mapping)
          ? null
          : "no mapping '"
              + mapping
              + "' in "
              + source
              + (loaded.isEmpty() ? "; it holds none" : "; found: " + String.join(", ", loaded));
    }
    if (loaded.isEmpty()) {
      return source + " holds no mapping for the test file to test";
    }
    return loaded.size() == 1
        ? null
        : source
            + " holds "
            + loaded.size()
            + " mappings; name one with 'mapping:' in the test file";
  }
}
