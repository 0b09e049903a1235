package io.github.appsetmapper.json;

import io.github.appsetmapper.text.Printable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collection;
import java.util.Map;

/**
 * The number policy of every reader: at most {@value #MAX_DIGITS} digits and an exponent within
 * &plusmn;{@value #MAX_EXPONENT}, checked on the text before any conversion. A number such as
 * {@code 1e999999999} is 11 characters, but its plain form ({@link BigDecimal#toPlainString()}) is
 * a billion: bounding the digits alone does not bound what a number can expand to.
 */
public final class Numbers {
  public static final int MAX_DIGITS = 1000;
  public static final int MAX_EXPONENT = 1000;

  /** How a refused number is described, for every reader's message. */
  public static final String BOUNDS =
      "at most " + MAX_DIGITS + " digits and an exponent within \u00b1" + MAX_EXPONENT;

  /**
   * The scale (&plusmn;) within which a number is written plainly, beyond which its scientific form
   * is kept: the bound on the scale of every number an expression computes (the expression layer's
   * {@code Decimals} holds its operators to it, and to 10,000 digits), so that every number an
   * answer can hold is written plainly ({@code 1E+9999}, a power within the bounds, was written so
   * while the plain form stopped at a scale of 4,000), and at most 20,001 digits long.
   */
  public static final int MAX_PLAIN_SCALE = 10_000;

  private Numbers() {}

  /** A number out of bounds, or text that is not a number. */
  public static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;
    private final boolean outOfBounds;

    Refused(String message, boolean outOfBounds) {
      super(message, null, false, false);
      this.outOfBounds = outOfBounds;
    }

    /** A number, but beyond the bounds (else: not a number at all). */
    public boolean outOfBounds() {
      return outOfBounds;
    }
  }

  /**
   * Parses JSON or YAML number text ({@code -12.5e3}, {@code 7}) within the bounds: Integer, Long
   * or BigInteger for integers, BigDecimal for the rest.
   */
  public static Number parse(String text) throws Refused {
    String t = text.strip();
    ascii(t);
    check(t);
    try {
      if (isInteger(t)) {
        BigInteger big = new BigInteger(t);
        if (big.bitLength() < 32) {
          return big.intValue();
        }
        return big.bitLength() < 64 ? (Number) big.longValue() : big;
      }
      return new BigDecimal(t);
    } catch (NumberFormatException e) {
      throw new Refused("'" + shorten(t) + "' is not a number", false);
    }
  }

  /** A decimal within the bounds (a {@code type: number} input given as text). */
  public static BigDecimal decimal(String text) throws Refused {
    String t = text.strip();
    ascii(t);
    check(t);
    try {
      return new BigDecimal(t);
    } catch (NumberFormatException e) {
      throw new Refused("'" + shorten(t) + "' is not a number", false);
    }
  }

  /**
   * JSON's characters only: Java's parsers also take the digits of other scripts ("١٢" as 12),
   * which no upstream means as a number here.
   */
  private static void ascii(String t) throws Refused {
    for (int i = 0; i < t.length(); i++) {
      char c = t.charAt(i);
      if (!((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E')) {
        throw new Refused("'" + shorten(t) + "' is not a number", false);
      }
    }
  }

  /**
   * Checks number text: its digits (before the exponent) and its exponent. Text that is no number
   * at all is left to the parser that follows.
   */
  static void check(String text) throws Refused {
    int digits = 0;
    int i = 0;
    int n = text.length();
    if (i < n && (text.charAt(i) == '-' || text.charAt(i) == '+')) {
      i++;
    }
    for (; i < n; i++) {
      char c = text.charAt(i);
      if (c >= '0' && c <= '9') {
        digits++;
      } else if (c == 'e' || c == 'E') {
        break;
      } else if (c != '.') {
        return;
      }
    }
    if (digits > MAX_DIGITS) {
      throw new Refused(
          "a number of " + digits + " digits is beyond the bounds (" + BOUNDS + ")", true);
    }
    if (i >= n) {
      return;
    }
    int start = i + 1;
    if (start < n && (text.charAt(start) == '-' || text.charAt(start) == '+')) {
      start++;
    }
    int significant = start;
    while (significant < n - 1 && text.charAt(significant) == '0') {
      significant++;
    }
    String exponent = text.substring(significant);
    if (exponent.isEmpty() || !exponent.chars().allMatch(Character::isDigit)) {
      return;
    }
    if (exponent.length() > 4 || Integer.parseInt(exponent) > MAX_EXPONENT) {
      throw new Refused(
          "the number '" + shorten(text) + "' is beyond the bounds (" + BOUNDS + ")", true);
    }
  }

  private static boolean isInteger(String text) {
    int i = text.startsWith("-") || text.startsWith("+") ? 1 : 0;
    if (i == text.length()) {
      return false;
    }
    for (; i < text.length(); i++) {
      if (!Character.isDigit(text.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /** Whether a number already in memory is within the bounds (YAML and test-file data). */
  public static boolean within(Number n) {
    if (n instanceof BigDecimal d) {
      return d.precision() <= MAX_DIGITS
          && Math.abs((long) d.precision() - d.scale() - 1) <= MAX_EXPONENT + MAX_DIGITS;
    }
    if (n instanceof BigInteger b) {
      return b.abs().toString().length() <= MAX_DIGITS;
    }
    if (n instanceof Double || n instanceof Float) {
      return !Double.isNaN(n.doubleValue()) && !Double.isInfinite(n.doubleValue());
    }
    return true;
  }

  /**
   * The first number in {@code data} (maps and lists walked) that is out of bounds, as text, or
   * null when every number fits.
   */
  public static String firstOutOfBounds(Object data) {
    return firstOutOfBounds(data, 0);
  }

  private static String firstOutOfBounds(Object data, int depth) {
    if (depth > 200) {
      return null;
    }
    if (data instanceof Number n) {
      return within(n) ? null : shorten(String.valueOf(n));
    }
    if (data instanceof Map<?, ?> map) {
      for (Object value : map.values()) {
        String found = firstOutOfBounds(value, depth + 1);
        if (found != null) {
          return found;
        }
      }
    } else if (data instanceof Collection<?> list) {
      for (Object value : list) {
        String found = firstOutOfBounds(value, depth + 1);
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  /**
   * A decimal as text: plain ({@code 10000000}, never {@code 1E+7}) while the plain form stays
   * short; beyond that the scientific form, so that no number is ever expanded to a huge text.
   */
  public static String plain(BigDecimal d) {
    return plainFits(d) ? d.toPlainString() : d.toString();
  }

  /**
   * A number as an answer or a report writes it: a decimal plainly ({@link #plain}), a double or a
   * float by the decimal of its shortest text, an integer as it is. What a check of the text an
   * answer will carry (a secret's, a half character's) reads for a number.
   */
  public static String written(Number n) {
    if (n instanceof BigDecimal d) {
      return plain(d);
    }
    if ((n instanceof Double || n instanceof Float) && Double.isFinite(n.doubleValue())) {
      return plain(
          n instanceof Float f
              ? new BigDecimal(Float.toString(f))
              : BigDecimal.valueOf(n.doubleValue()));
    }
    return n.toString();
  }

  /** Whether {@code d}'s plain text is short enough to write. */
  public static boolean plainFits(BigDecimal d) {
    int scale = d.scale();
    return scale >= -MAX_PLAIN_SCALE && scale <= MAX_PLAIN_SCALE;
  }

  static String shorten(String text) {
    return Printable.cut(text, 40);
  }
}
