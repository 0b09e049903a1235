package io.github.appsetmapper.json;

/**
 * Which number of the YAML 1.2 core schema a plain scalar spells, by one pass over its characters.
 * It answers exactly as the patterns it replaces (CoreNumberTest holds it against them on every
 * string of a number-like alphabet up to five characters, and on longer random ones), without regex
 * matches per scalar: a Helm index has versions and numbers in every entry.
 *
 * <ul>
 *   <li>{@code DECIMAL}: {@code [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?} (integers
 *       {@code [-+]?[0-9]+} are the case without a point or exponent);
 *   <li>{@code OCTAL}: {@code 0o[0-7]+}; {@code HEX}: {@code 0x[0-9a-fA-F]+};
 *   <li>{@code TEXT}: anything else.
 * </ul>
 */
final class CoreNumber {
  enum Shape {
    DECIMAL,
    OCTAL,
    HEX,
    TEXT
  }

  private CoreNumber() {}

  static Shape shape(String text) {
    if (decimal(text)) {
      return Shape.DECIMAL;
    }
    int length = text.length();
    if (length < 3 || text.charAt(0) != '0') {
      return Shape.TEXT;
    }
    char base = text.charAt(1);
    if (base != 'o' && base != 'x') {
      return Shape.TEXT;
    }
    for (int i = 2; i < length; i++) {
      char c = text.charAt(i);
      boolean digit = base == 'o' ? c >= '0' && c <= '7' : hexDigit(c);
      if (!digit) {
        return Shape.TEXT;
      }
    }
    return base == 'o' ? Shape.OCTAL : Shape.HEX;
  }

  private static boolean decimal(String text) {
    int length = text.length();
    int i = 0;
    if (i < length && (text.charAt(i) == '-' || text.charAt(i) == '+')) {
      i++;
    }
    if (i < length && text.charAt(i) == '.') {
      int digits = digits(text, ++i);
      if (digits == i) {
        return false;
      }
      i = digits;
    } else {
      int digits = digits(text, i);
      if (digits == i) {
        return false;
      }
      i = digits;
      if (i < length && text.charAt(i) == '.') {
        i = digits(text, i + 1);
      }
    }
    if (i < length && (text.charAt(i) == 'e' || text.charAt(i) == 'E')) {
      i++;
      if (i < length && (text.charAt(i) == '-' || text.charAt(i) == '+')) {
        i++;
      }
      int digits = digits(text, i);
      if (digits == i) {
        return false;
      }
      i = digits;
    }
    return i == length;
  }

  /** Where the run of ASCII digits starting at {@code from} ends. */
  private static int digits(String text, int from) {
    int i = from;
    while (i < text.length() && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
      i++;
    }
    return i;
  }

  private static boolean hexDigit(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }
}
