package io.github.appsetmapper.expr;

import java.text.BreakIterator;
import java.util.BitSet;
import java.util.Locale;

/**
 * Upper- and lower-casing in linear time, with the JDK's results. The JDK's {@code toUpperCase}
 * grows its result array by copying it for every character that becomes two or three (ß becomes
 * SS), so 530,000 ß took 45 s, past any deadline (an outside tester's find). The root locale has no
 * rule that depends on the characters around one, so each code point is changed alone, with the
 * JDK's own mapping, where any grows; the rest keeps the JDK's fast path.
 *
 * <p>Lower-casing has two characters the JDK treats apart, both quadratic: İ (U+0130) becomes two
 * (i and a combining dot), with the same copy per character as above (200,000 took 21 s), and Σ
 * (U+03A3) becomes ς at the end of a word, else σ, which the JDK decides for each Σ with a new word
 * break iterator asked about the whole text (20,000 Σ took 6 s, 80,000 two minutes). Here the
 * text's word boundaries are found once, and each Σ looks only within its word, as the JDK's rule
 * does: for a cased letter before it, and none after it.
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

  static String lower(String text) {
    if (text.indexOf('\u0130') < 0 && text.indexOf('\u03a3') < 0) {
      return text.toLowerCase(Locale.ROOT);
    }
    BitSet boundaries = text.indexOf('\u03a3') < 0 ? null : wordBoundaries(text);
    StringBuilder out = new StringBuilder(text.length() + 16);
    EvaluationBudget budget = EvaluationBudget.current();
    for (int i = 0; i < text.length(); ) {
      int codePoint = text.codePointAt(i);
      int next = i + Character.charCount(codePoint);
      budget.reserve(out.length() + 2L, "toLowerCase");
      if (codePoint == 0x0130) {
        out.append("i\u0307");
      } else if (codePoint == 0x03A3) {
        out.append(finalInWord(text, i, boundaries) ? '\u03c2' : '\u03c3');
      } else {
        out.appendCodePoint(Character.toLowerCase(codePoint));
      }
      budget.tick();
      i = next;
    }
    return out.toString();
  }

  /** Every word boundary of {@code text} (its start and end among them), found in one pass. */
  private static BitSet wordBoundaries(String text) {
    BitSet out = new BitSet(text.length() + 1);
    BreakIterator words = BreakIterator.getWordInstance(Locale.ROOT);
    words.setText(text);
    for (int at = words.first(); at != BreakIterator.DONE; at = words.next()) {
      out.set(at);
    }
    out.set(0);
    out.set(text.length());
    return out;
  }

  /**
   * Unicode's Final_Sigma, as the JDK reads it: within the word around {@code index}, a cased
   * character before it and none after it. Each Σ's look ends at the nearest cased character (a Σ
   * is one) or boundary, so all of them together read the text at most twice.
   */
  private static boolean finalInWord(String text, int index, BitSet boundaries) {
    boolean casedBefore = false;
    for (int i = index; !boundaries.get(i); ) {
      int before = text.codePointBefore(i);
      if (cased(before)) {
        casedBefore = true;
        break;
      }
      i -= Character.charCount(before);
    }
    if (!casedBefore) {
      return false;
    }
    for (int i = index + 1; i < text.length() && !boundaries.get(i); ) {
      int after = text.codePointAt(i);
      if (cased(after)) {
        return false;
      }
      i += Character.charCount(after);
    }
    return true;
  }

  /**
   * The characters that rule counts as cased, as the JDK's counts them: letters of categories Ll,
   * Lu and Lt, and the Other_Lowercase and Other_Uppercase ranges of its (older) Unicode data, not
   * today's (ª, º and others are not among them).
   */
  private static final int[] OTHER_CASED = {
    0x02B0, 0x02B8, 0x02C0, 0x02C1, 0x02E0, 0x02E4, 0x0345, 0x0345, 0x037A, 0x037A, 0x1D2C, 0x1D61,
    0x2160, 0x217F, 0x24B6, 0x24E9
  };

  private static boolean cased(int codePoint) {
    int type = Character.getType(codePoint);
    if (type == Character.LOWERCASE_LETTER
        || type == Character.UPPERCASE_LETTER
        || type == Character.TITLECASE_LETTER) {
      return true;
    }
    for (int r = 0; r < OTHER_CASED.length; r += 2) {
      if (codePoint >= OTHER_CASED[r] && codePoint <= OTHER_CASED[r + 1]) {
        return true;
      }
    }
    return false;
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
