package io.github.appsetmapper.expr;

/**
 * Finding a string in a string in linear time (Knuth-Morris-Pratt), with {@link String}'s exact
 * results: the JDK's {@code indexOf} compares at every position, so a 1,000,000-character pattern
 * that almost matches a 2,000,000-character text takes about 10^12 steps. Both texts can come from
 * an upstream. The evaluation's deadline is checked as the text is read.
 */
final class TextSearch {
  private TextSearch() {}

  /** {@link String#indexOf(String, int)}. */
  static int indexOf(String text, String pattern, int from) {
    int start = Math.max(from, 0);
    if (pattern.isEmpty()) {
      return Math.min(start, text.length());
    }
    int[] fallback = fallback(pattern);
    EvaluationBudget budget = EvaluationBudget.current();
    int matched = 0;
    for (int i = start; i < text.length(); i++) {
      budget.tick();
      char c = text.charAt(i);
      while (matched > 0 && pattern.charAt(matched) != c) {
        matched = fallback[matched - 1];
      }
      if (pattern.charAt(matched) == c && ++matched == pattern.length()) {
        return i - pattern.length() + 1;
      }
    }
    return -1;
  }

  /** {@link String#lastIndexOf(String, int)}: the last start at or before {@code from}. */
  static int lastIndexOf(String text, String pattern, int from) {
    int last = Math.min(from, text.length() - pattern.length());
    if (last < 0) {
      return -1;
    }
    if (pattern.isEmpty()) {
      return last;
    }
    int[] fallback = fallback(pattern);
    EvaluationBudget budget = EvaluationBudget.current();
    int found = -1;
    int matched = 0;
    int end = last + pattern.length();
    for (int i = 0; i < end; i++) {
      budget.tick();
      char c = text.charAt(i);
      while (matched > 0 && pattern.charAt(matched) != c) {
        matched = fallback[matched - 1];
      }
      if (pattern.charAt(matched) == c && ++matched == pattern.length()) {
        found = i - pattern.length() + 1;
        matched = fallback[matched - 1];
      }
    }
    return found;
  }

  /** For each prefix, the length of its longest proper prefix that is also its suffix. */
  private static int[] fallback(String pattern) {
    int[] out = new int[pattern.length()];
    EvaluationBudget budget = EvaluationBudget.current();
    int k = 0;
    for (int i = 1; i < pattern.length(); i++) {
      budget.tick();
      while (k > 0 && pattern.charAt(i) != pattern.charAt(k)) {
        k = out[k - 1];
      }
      if (pattern.charAt(i) == pattern.charAt(k)) {
        k++;
      }
      out[i] = k;
    }
    return out;
  }
}
