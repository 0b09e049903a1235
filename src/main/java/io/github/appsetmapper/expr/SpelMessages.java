package io.github.appsetmapper.expr;

import org.springframework.expression.spel.SpelEvaluationException;
import org.springframework.expression.spel.SpelMessage;

/** SpEL's messages without their {@code EL1011E:} codes, which mean nothing to a mapping author. */
public final class SpelMessages {
  private SpelMessages() {}

  public static String simple(Exception e) {
    String function = functionFailure(e);
    if (function != null) {
      return function;
    }
    String message =
        e instanceof org.springframework.expression.ExpressionException spel
            ? spel.getSimpleMessage()
            : e.getMessage();
    return message == null
        ? e.getClass().getSimpleName()
        : message.replaceFirst("^EL\\d{4}E: ", "");
  }

  /**
   * A {@code #function} that refused its argument, in its own words and named once ({@code
   * #toNumber: 'next' is not a number}) rather than inside SpEL's "A problem occurred whilst
   * attempting to invoke the function"; null for any other failure.
   */
  private static String functionFailure(Exception e) {
    if (!(e instanceof SpelEvaluationException spel)
        || (spel.getMessageCode() != SpelMessage.FUNCTION_REFERENCE_CANNOT_BE_INVOKED
            && spel.getMessageCode() != SpelMessage.EXCEPTION_DURING_FUNCTION_CALL)) {
      return null;
    }
    Throwable cause = spel.getCause();
    if (cause instanceof java.lang.reflect.InvocationTargetException invocation) {
      cause = invocation.getTargetException();
    }
    if (!(cause instanceof IllegalArgumentException refused)
        || refused.getMessage() == null
        || spel.getInserts() == null
        || spel.getInserts().length == 0) {
      return null;
    }
    String name = "#" + spel.getInserts()[0];
    String said = refused.getMessage();
    return said.startsWith(name) ? said : name + ": " + said;
  }
}
