package io.github.appsetmapper.json;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * How many characters a number takes once written, as the writer writes it ({@link Numbers#plain}:
 * plainly up to a scale of {@value Numbers#MAX_PLAIN_SCALE} either way, so {@code 1e999} is a one
 * and 999 zeros), without writing it: what every estimate of a number's size counts. An upper
 * bound, from the unscaled value's bits (reading a decimal's precision reads its digits). Counted
 * as its digits alone, 100,000 copies of {@code 1e999} in a 600 KB answer were estimated at 5 MB
 * and written as 100 MB (an outside tester's find).
 */
public final class WrittenNumbers {
  /** A decimal's digits per bit of its unscaled value, rounded up. */
  private static final double DIGITS_PER_BIT = 0.30103;

  /** The point and an exponent ({@code E+2147483647}) of the scientific form, and a sign. */
  private static final int SCIENTIFIC_EXTRA = 14;

  private WrittenNumbers() {}

  /** The characters {@code n} takes once written (at least its length; never less). */
  public static long length(Number n) {
    if (n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte) {
      return Long.toString(n.longValue()).length();
    }
    if (n instanceof BigInteger big) {
      return digits(big) + 1;
    }
    if (n instanceof BigDecimal decimal) {
      return length(decimal);
    }
    if ((n instanceof Double || n instanceof Float) && Double.isFinite(n.doubleValue())) {
      // Counted as its decimal written plainly, the longest a writer may make it (309 digits).
      return length(BigDecimal.valueOf(n.doubleValue()));
    }
    return String.valueOf(n).length();
  }

  private static long length(BigDecimal decimal) {
    long digits = digits(decimal.unscaledValue());
    long sign = decimal.signum() < 0 ? 1 : 0;
    if (!Numbers.plainFits(decimal)) {
      return digits + SCIENTIFIC_EXTRA + sign;
    }
    long scale = decimal.scale();
    if (scale <= 0) {
      return digits - scale + sign; // the digits and as many zeros as the scale is below 0
    }
    return Math.max(digits, scale) + 2 + sign; // "0.000ddd" or "ddd.ddd"
  }

  private static long digits(BigInteger value) {
    return (long) (value.bitLength() * DIGITS_PER_BIT) + 1;
  }
}
