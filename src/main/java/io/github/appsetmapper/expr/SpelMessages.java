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
        : literalHint(plainTypes(message.replaceFirst("^EL\\d{4}E: ", "")));
  }

  private static final java.util.regex.Pattern NOT_AN_INT =
      java.util.regex.Pattern.compile("The value '(\\d+)' cannot be parsed as an int");

  /**
   * A whole number literal is an int in SpEL: one past 2147483647 is a load error that does not say
   * how to write it (an outside first-time author's stumble).
   */
  private static String literalHint(String message) {
    java.util.regex.Matcher m = NOT_AN_INT.matcher(message);
    return m.find()
        ? message + " (a whole number past 2147483647 is written with an L: " + m.group(1) + "L)"
        : message;
  }

  private static final java.util.regex.Pattern JAVA_TYPE =
      java.util.regex.Pattern.compile("\\bjava\\.[a-z.]+\\.([A-Z]\\w*)(?:<[^<>]*>)?");

  private static final java.util.regex.Pattern CONVERSION =
      java.util.regex.Pattern.compile("cannot convert from (\\w+) to (int|long|double|boolean)\\b");

  /**
   * SpEL names Java types when it cannot convert an argument ("cannot convert from java.lang.String
   * to java.util.Map<?, ?>"): said in a mapping author's words (text, number, list, map), as every
   * other message of ours is, never a Java class name.
   */
  static String plainTypes(String message) {
    String plain =
        JAVA_TYPE
            .matcher(message)
            .replaceAll(m -> java.util.regex.Matcher.quoteReplacement(word(m.group(1))));
    return CONVERSION
        .matcher(plain)
        .replaceAll(m -> "cannot convert from " + m.group(1) + " to " + word(m.group(2)));
  }

  private static String word(String type) {
    return switch (type) {
      case "String", "CharSequence", "Character", "char" -> "text";
      case "Map", "LinkedHashMap", "HashMap", "TreeMap" -> "map";
      case "List", "ArrayList", "Collection", "Set", "LinkedHashSet", "Iterable" -> "list";
      case "Boolean", "boolean" -> "boolean";
      case "Integer",
          "Long",
          "Short",
          "Byte",
          "Double",
          "Float",
          "BigDecimal",
          "BigInteger",
          "Number",
          "int",
          "long",
          "double" ->
          "number";
      default -> "value";
    };
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
    if (!(cause instanceof IllegalArgumentException || cause instanceof ExpressionLimitException)
        || cause.getMessage() == null
        || spel.getInserts() == null
        || spel.getInserts().length == 0) {
      return null;
    }
    String name = "#" + spel.getInserts()[0];
    String said = cause.getMessage();
    return said.startsWith(name) ? said : name + ": " + said;
  }
}
