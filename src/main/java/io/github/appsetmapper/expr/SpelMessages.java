package io.github.appsetmapper.expr;

/** SpEL's messages without their {@code EL1011E:} codes, which mean nothing to a mapping author. */
public final class SpelMessages {
  private SpelMessages() {}

  public static String simple(Exception e) {
    String message =
        e instanceof org.springframework.expression.ExpressionException spel
            ? spel.getSimpleMessage()
            : e.getMessage();
    return message == null
        ? e.getClass().getSimpleName()
        : message.replaceFirst("^EL\\d{4}E: ", "");
  }
}
