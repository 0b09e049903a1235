package io.github.appsetmapper.expr;

import java.math.BigDecimal;
import org.springframework.expression.TypedValue;
import org.springframework.expression.spel.ast.FloatLiteral;
import org.springframework.expression.spel.ast.Literal;
import org.springframework.expression.spel.ast.RealLiteral;
import org.springframework.expression.spel.ast.SpelNodeImpl;

/**
 * A real literal that no double (or float) holds, as the exact decimal it is written as: SpEL reads
 * {@code 9223372036854775808.0} as the double 2^63 and {@code 9007199254740993.0} as
 * 9007199254740992, and {@link MixedNumbers} counts a double as its shortest text ({@code
 * 9.223372036854776E18}), so {@code item.size >= 9223372036854775808.0} was false for a size of
 * 2^63 and {@code item.size - 9223372036854775808.0} was -192. {@link BuildCounting} puts this node
 * in the tree in place of such a literal (its value is {@code new BigDecimal} of its text, with no
 * {@code d}/{@code f} suffix and no trailing zeros); a literal whose text is what the double shows
 * ({@code 0.1}, {@code 2.5}, {@code 1e3}) stays SpEL's double, and a float's text is {@link
 * Float#toString}'s. A non-finite literal ({@code 1e400}) is refused at load ({@link
 * SandboxChecker}) and stays as it is here. Never compiled.
 */
final class ExactLiteral extends Literal {
  private final TypedValue value;

  private ExactLiteral(Literal written, BigDecimal value) {
    super(written.getOriginalValue(), written.getStartPosition(), written.getEndPosition());
    this.value = new TypedValue(value);
  }

  /** {@code node} as the exact decimal it is written as when its double is not that; else null. */
  static ExactLiteral of(SpelNodeImpl node) {
    if (!(node instanceof RealLiteral || node instanceof FloatLiteral)) {
      return null;
    }
    Literal literal = (Literal) node;
    BigDecimal written = written(literal.getOriginalValue());
    Object binary = literal.getLiteralValue().getValue();
    if (written == null || !(binary instanceof Number n) || !MixedNumbers.finite(n)) {
      return null;
    }
    if (written.compareTo((BigDecimal) MixedNumbers.exact(n)) == 0) {
      return null;
    }
    BigDecimal stripped = written.stripTrailingZeros();
    return new ExactLiteral(literal, stripped.scale() < 0 ? stripped.setScale(0) : stripped);
  }

  /** The decimal {@code text} is written as ({@code 1.5d}, {@code 16777217f}), or null. */
  private static BigDecimal written(String text) {
    String digits = text;
    if (!digits.isEmpty() && "dDfF".indexOf(digits.charAt(digits.length() - 1)) >= 0) {
      digits = digits.substring(0, digits.length() - 1);
    }
    try {
      return new BigDecimal(digits);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  @Override
  public TypedValue getLiteralValue() {
    return value;
  }

  @Override
  public boolean isNumberLiteral() {
    return true;
  }

  @Override
  public String toString() {
    return getOriginalValue();
  }
}
