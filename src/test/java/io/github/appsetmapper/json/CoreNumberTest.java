package io.github.appsetmapper.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.json.CoreNumber.Shape;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * CoreNumber answers exactly as the core schema's patterns it replaced in YamlCodec (the meaning of
 * {@code format: yaml} scalars must not move by a character): every string of an alphabet that
 * holds each character those patterns tell apart, up to five characters, and random longer ones.
 */
class CoreNumberTest {
  private static final Pattern INT = Pattern.compile("[-+]?[0-9]+");
  private static final Pattern OCTAL = Pattern.compile("0o[0-7]+");
  private static final Pattern HEX = Pattern.compile("0x[0-9a-fA-F]+");
  private static final Pattern FLOAT =
      Pattern.compile("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");

  /** Octal and decimal digits, one past each, hex letters and one past them, signs, marks. */
  private static final char[] ALPHABET = "078aFgxoeE.-+_".toCharArray();

  private static Shape byPatterns(String text) {
    if (INT.matcher(text).matches() || FLOAT.matcher(text).matches()) {
      return Shape.DECIMAL;
    }
    if (OCTAL.matcher(text).matches()) {
      return Shape.OCTAL;
    }
    return HEX.matcher(text).matches() ? Shape.HEX : Shape.TEXT;
  }

  @Test
  void everyShortStringIsShapedAsThePatternsShapeIt() {
    char[] text = new char[5];
    long checked = 0;
    for (int length = 0; length <= text.length; length++) {
      int[] at = new int[length];
      while (true) {
        for (int i = 0; i < length; i++) {
          text[i] = ALPHABET[at[i]];
        }
        String candidate = new String(text, 0, length);
        assertThat(CoreNumber.shape(candidate)).as(candidate).isEqualTo(byPatterns(candidate));
        checked++;
        int i = length - 1;
        while (i >= 0 && ++at[i] == ALPHABET.length) {
          at[i--] = 0;
        }
        if (i < 0) {
          break;
        }
      }
    }
    assertThat(checked).isGreaterThan(500_000);
  }

  @Test
  void longerRandomStringsAndRealScalarsAreShapedAsThePatternsShapeThem() {
    Random random = new Random(25);
    for (int n = 0; n < 200_000; n++) {
      char[] text = new char[6 + random.nextInt(10)];
      for (int i = 0; i < text.length; i++) {
        text[i] = ALPHABET[random.nextInt(ALPHABET.length)];
      }
      String candidate = new String(text);
      assertThat(CoreNumber.shape(candidate)).as(candidate).isEqualTo(byPatterns(candidate));
    }
    for (String real :
        new String[] {
          "1.10",
          "0.0.3",
          "18.x.x",
          "2024-01-02",
          "1_000",
          "0:30",
          "0o17",
          "0x1F",
          "-1.5e+3",
          ".5",
          "5.",
          "1e",
          "+.e1",
          "0o",
          "0x",
          "0o8",
          "0xg",
          "١٢",
          ".inf",
          "-.nan",
          "1E5"
        }) {
      assertThat(CoreNumber.shape(real)).as(real).isEqualTo(byPatterns(real));
    }
  }
}
