package io.github.appsetmapper.expr;

/** How many digits a number an operator built counts for in the evaluation's budget. */
final class BuiltDigits {
  private BuiltDigits() {}

  /**
   * Digits of a number an operator built, refused past {@link EvaluationBudget#MAX_NUMBER_DIGITS};
   * counted as the characters it is written with ({@link
   * io.github.appsetmapper.json.WrittenNumbers}).
   */
  static long of(Object value, String what) {
    long digits;
    if (value instanceof java.math.BigInteger big) {
      digits = digits(big);
    } else if (value instanceof java.math.BigDecimal decimal) {
      digits = digits(decimal.unscaledValue());
    } else {
      return 8;
    }
    if (digits > EvaluationBudget.MAX_NUMBER_DIGITS) {
      throw new ExpressionLimitException(
          what
              + " would build a number of more than "
              + EvaluationBudget.MAX_NUMBER_DIGITS
              + " digits");
    }
    // As it is written: 1e999 is one digit and a thousand characters of #json's text.
    return value instanceof java.math.BigDecimal decimal
        ? Math.max(digits, io.github.appsetmapper.json.WrittenNumbers.length(decimal))
        : digits;
  }

  /**
   * The digits of {@code n}: from its bit length, which bounds them within one digit, and counted
   * exactly only near {@link EvaluationBudget#MAX_NUMBER_DIGITS} (an estimate of 0.302 a bit
   * refused numbers of 9,970 digits that every operator allows).
   */
  private static long digits(java.math.BigInteger n) {
    int bits = n.bitLength();
    long most = (long) (bits * 0.30103) + 1;
    long fewest = (long) ((bits - 1) * 0.30102999) + 1;
    if (most <= EvaluationBudget.MAX_NUMBER_DIGITS || fewest > EvaluationBudget.MAX_NUMBER_DIGITS) {
      return most;
    }
    return new java.math.BigDecimal(n).precision();
  }
}
