package io.github.appsetmapper.expr;

import java.util.Locale;

/**
 * Upper-casing in linear time. The JDK's {@code toUpperCase} grows its result array by copying it
 * for every character that becomes two or three (ß becomes SS), so 530,000 ß took 45 s, past any
 * deadline (an outside tester's find). The root locale has no rule that depends on the characters
 * around one, so each code point is changed alone, with the JDK's own mapping, where any grows; the
 * rest keeps the JDK's fast path.
 */
final class CaseChange {
  private CaseChange() {}

  static String upper(String text) {
    if (!mayGrow(text)) {
      return text.toUpperCase(Locale.ROOT);
    }
    StringBuilder out = new StringBuilder(text.length() + 16);
    EvaluationBudget budget = EvaluationBudget.current();
    for (int i = 0; i < text.length(); ) {
      int codePoint = text.codePointAt(i);
      int next = i + Character.charCount(codePoint);
      String changed = text.substring(i, next).toUpperCase(Locale.ROOT);
      budget.reserve(out.length() + (long) changed.length(), "toUpperCase");
      out.append(changed);
      budget.tick();
      i = next;
    }
    return out.toString();
  }

  /** Whether a character may become more than one: beyond ASCII only (ß, ŉ, ligatures...). */
  private static boolean mayGrow(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) > 0x7F) {
        return true;
      }
    }
    return false;
  }
}
