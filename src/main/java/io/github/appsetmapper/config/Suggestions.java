package io.github.appsetmapper.config;

import java.util.Collection;
import java.util.Optional;

/** "did you mean ...?" for unknown keys, by edit distance as dropwizard-configuration does. */
public final class Suggestions {
  private Suggestions() {}

  public static Optional<String> closest(String word, Collection<String> known) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : known) {
      int distance = distance(word.toLowerCase(), candidate.toLowerCase());
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    int allowed = Math.max(1, Math.min(3, word.length() / 3));
    return bestDistance <= allowed ? Optional.of(best) : Optional.empty();
  }

  /** Appends " (did you mean 'x'?)" or the list of known names. */
  public static String hint(String word, Collection<String> known) {
    return closest(word, known)
        .map(s -> "; did you mean '" + s + "'?")
        .orElse("; known: " + String.join(", ", known));
  }

  static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        current[j] =
            Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
