package io.github.appsetmapper.expr;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The linear search gives exactly what String's does, at every start, on texts made to repeat. */
class TextSearchTest {
  @Test
  void indexOfAndLastIndexOfAreTheJdks() {
    Random random = new Random(42);
    for (int round = 0; round < 3000; round++) {
      String text = random(random, random.nextInt(30));
      String pattern =
          random.nextInt(4) == 0 && !text.isEmpty()
              ? text.substring(random.nextInt(text.length()))
              : random(random, random.nextInt(5));
      for (int from : new int[] {-3, 0, 1, text.length() / 2, text.length(), text.length() + 4}) {
        assertThat(TextSearch.indexOf(text, pattern, from))
            .as("'%s'.indexOf('%s', %d)", text, pattern, from)
            .isEqualTo(text.indexOf(pattern, from));
        assertThat(TextSearch.lastIndexOf(text, pattern, from))
            .as("'%s'.lastIndexOf('%s', %d)", text, pattern, from)
            .isEqualTo(text.lastIndexOf(pattern, from));
      }
      assertThat(TextSearch.lastIndexOf(text, pattern, Integer.MAX_VALUE))
          .isEqualTo(text.lastIndexOf(pattern));
    }
  }

  @Test
  void replaceIsTheJdks() {
    Random random = new Random(7);
    for (int round = 0; round < 2000; round++) {
      String text = random(random, random.nextInt(30));
      String from = random(random, random.nextInt(4));
      String to = random(random, random.nextInt(4));
      assertThat(
              Evaluator.evaluate(
                  new org.springframework.expression.spel.standard.SpelExpressionParser()
                      .parseExpression("t.replace(f, r)"),
                  java.util.Map.of("t", text, "f", from, "r", to)))
          .as("'%s'.replace('%s', '%s')", text, from, to)
          .isEqualTo(text.replace(from, to));
    }
  }

  /** Over a small alphabet, so that patterns repeat and partly match. */
  private static String random(Random random, int length) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < length; i++) {
      out.append("aab".charAt(random.nextInt(3)));
    }
    return out.toString();
  }
}
