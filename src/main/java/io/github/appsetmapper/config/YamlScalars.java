package io.github.appsetmapper.config;

import io.github.appsetmapper.json.Numbers;
import java.math.BigInteger;
import java.util.Set;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * The one rule for a plain YAML scalar's value, in a mapping's data (a default, a body) and in a
 * test file alike. SnakeYAML resolves YAML 1.1's implicit types; a value is read here as YAML 1.2's
 * core schema reads it (as {@code json/YamlCodec} reads an upstream's YAML), or kept as the text
 * the author typed: {@code 010} is 10 (YAML 1.1: 8), {@code 0x1F} is 31, {@code 22:22}, {@code
 * 0b101} and {@code 1_000} are text (YAML 1.1: 1342, 5 and 1000), {@code on}, {@code yes}, {@code
 * off}, {@code n} are text (YAML 1.1: booleans); only {@code true} and {@code false} are booleans.
 */
public final class YamlScalars {
  /** YAML 1.2 core schema's booleans; YAML 1.1's others ({@code yes}, {@code on}...) are text. */
  private static final Set<String> TRUE = Set.of("true", "True", "TRUE");

  private static final Set<String> FALSE = Set.of("false", "False", "FALSE");

  private static final Pattern DECIMAL = Pattern.compile("[-+]?[0-9]{1,4000}");

  private static final Pattern HEX = Pattern.compile("0x[0-9a-fA-F]{1,4000}");

  private YamlScalars() {}

  /**
   * Why a plain scalar that YAML 1.1 reads as a boolean and YAML 1.2 as text ({@code no}, {@code
   * yes}, {@code on}, {@code off}) is refused in a mapping's data, or null: read either way, one of
   * its readers is wrong and nothing says so (an input's {@code default: no} became the text "no",
   * a {@code type: boolean} filter then matched no row, and the answer was an empty 200).
   */
  public static String eitherWay(ScalarNode scalar) {
    String text = scalar.getValue();
    if (!scalar.getTag().equals(Tag.BOOL) || TRUE.contains(text) || FALSE.contains(text)) {
      return null;
    }
    boolean yes = Set.of("yes", "on").contains(text.toLowerCase(java.util.Locale.ROOT));
    return "'"
        + text
        + "' is a boolean in YAML 1.1 and text in YAML 1.2: write "
        + yes
        + " for the boolean, or '\""
        + text
        + "\"' in quotes for the text";
  }

  /**
   * The value of a plain scalar: null, a boolean, a number (Integer, Long or BigInteger; exact
   * decimals) or the text as written.
   *
   * @throws Numbers.Refused for a number beyond the bounds
   */
  public static Object value(ScalarNode scalar) throws Numbers.Refused {
    String text = scalar.getValue();
    Tag tag = scalar.getTag();
    if (tag.equals(Tag.NULL)) {
      return null;
    }
    if (tag.equals(Tag.BOOL)) {
      return TRUE.contains(text) ? Boolean.TRUE : FALSE.contains(text) ? Boolean.FALSE : text;
    }
    if (tag.equals(Tag.INT)) {
      // YAML 1.1's others (0b101, 1_000, 0:30, 0777 as octal) are the core schema's text.
      String decimal =
          DECIMAL.matcher(text).matches()
              ? text
              : HEX.matcher(text).matches()
                  ? new BigInteger(text.substring(2), 16).toString()
                  : null;
      if (decimal == null) {
        return text;
      }
      try {
        Number number = Numbers.parse(decimal);
        return number instanceof BigInteger big ? big : (Object) number.longValue();
      } catch (Numbers.Refused e) {
        if (e.outOfBounds()) {
          throw e;
        }
        return text;
      }
    }
    if (tag.equals(Tag.FLOAT)) {
      if (text.indexOf('_') >= 0) {
        return text; // YAML 1.1's 1_000.5 is the core schema's text
      }
      try {
        return Numbers.decimal(text);
      } catch (Numbers.Refused e) {
        if (e.outOfBounds()) {
          throw e;
        }
        return text;
      }
    }
    return text;
  }
}
