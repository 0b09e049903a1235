package io.github.appsetmapper.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.springframework.expression.spel.standard.SpelExpressionParser;

/**
 * Lower-casing is linear with the JDK's results: the JDK's is quadratic on İ (U+0130, which becomes
 * two characters: 200,000 took 21 s) and on Σ (U+03A3, a word break iterator over the whole text
 * for each: 80,000 took two minutes), an outside tester's find for İ.
 */
class CaseChangeTest {
  private static final SpelExpressionParser PARSER = new SpelExpressionParser();

  /**
   * Half a million of each through {@code #lower} and {@code toLowerCase()}: milliseconds when
   * linear, hours with the JDK's (the limit is for a stuck test, not a measure).
   */
  @Test
  void manyDottedCapitalIsAndSigmasLowerInLinearTime() {
    // Each with its lower-case written out: the JDK's would take as long as the code tested.
    Map<String, String> cases =
        Map.of(
            "\u0130".repeat(500_000), "i\u0307".repeat(500_000),
            "\u03a3".repeat(500_000), "\u03c3".repeat(499_999) + "\u03c2",
            "A\u03a3 ".repeat(300_000), "a\u03c2 ".repeat(300_000));
    assertTimeoutPreemptively(
        Duration.ofSeconds(60),
        () -> {
          for (Map.Entry<String, String> c : cases.entrySet()) {
            Map<String, Object> scope = Map.of("input", Map.of("s", c.getKey()));
            for (String expression : List.of("#lower(input.s)", "input.s.toLowerCase()")) {
              Object lowered = Evaluator.evaluate(PARSER.parseExpression(expression), scope);
              assertThat(lowered).as(expression).isEqualTo(c.getValue());
            }
          }
        });
  }

  /** The JDK's answer on every BMP character beside a Σ, and on random short texts. */
  @Test
  void everyCharacterLowersAsTheJdkLowersIt() {
    for (int c = 0; c < 0x10000; c++) {
      if (Character.isSurrogate((char) c)) {
        continue;
      }
      String x = Character.toString(c);
      for (String text : List.of(x + "\u03a3", "A\u03a3" + x, "A" + x + "\u03a3", x + "\u0130")) {
        assertThat(CaseChange.lower(text)).as("U+%04X in %s", c, text).isEqualTo(jdk(text));
      }
    }
    // Characters of the BMP: around one beyond it (or half a surrogate pair), the JDK's break
    // iterator asked about one place may end a word where walking the text does not (𐐀1Σ:
    // ς by Unicode and here, σ by the JDK); there the answer here is Unicode's.
    int[] alphabet =
        "\u03a3\u0130aA1 .'-_:\u0301\u00aa\u02b0\u24b6\u2170\u01c5\u00df\u03c3\u0391"
            .concat("\u200d\u05d0\u3042\u0627\t\n\u0345\u00b7\u2019")
            .codePoints()
            .toArray();
    Random random = new Random(25);
    for (int n = 0; n < 50_000; n++) {
      StringBuilder text = new StringBuilder();
      for (int k = random.nextInt(10); k >= 0; k--) {
        text.appendCodePoint(alphabet[random.nextInt(alphabet.length)]);
      }
      String t = text.toString();
      assertThat(CaseChange.lower(t)).as("%s", t.codePoints().boxed().toList()).isEqualTo(jdk(t));
    }
  }

  private static String jdk(String text) {
    return text.toLowerCase(Locale.ROOT);
  }
}
