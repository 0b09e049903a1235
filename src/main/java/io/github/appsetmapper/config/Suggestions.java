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

  /** Edit distance counting a swap of two neighbours as one edit ("itme" is one from "item"). */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
