package io.github.appsetmapper.secret;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The redactor's work on hostile text is linear in the text, with a small constant: counted in
 * bytes decoded, searched, compared and normalised ({@link Redactor#steps}), never timed. Every
 * answer value goes through it, so a text that costs it its length squared (or its length times a
 * secret's) is an upstream that makes every call run into its deadline.
 */
class RedactionWorkTest {
  private static final String SECRET = "s3cr3t-Token-Value-42xyz";

  /** Steps per character the redaction of any of these texts stays within. */
  private static final int PER_CHARACTER = 64;

  private static final String BASE64 =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

  /**
   * An outsider's upstream answered 1,500 such values (1.3 MB): 130 steps a character, most of them
   * on views that decoded nothing new (a second and third HTML pass over text whose references were
   * all undone) and on base64 runs too short to hold a secret, decoded four times.
   */
  @Test
  void base64TextWithMixedEscapesCostsAFewPassesACharacter() {
    Redactor redactor = new Redactor();
    redactor.hold(SECRET);
    Random random = new Random(1);
    StringBuilder text = new StringBuilder();
    while (text.length() < 20_000) {
      for (int k = 0; k < 8; k++) {
        text.append(BASE64.charAt(random.nextInt(64)));
      }
      text.append("%41&amp;&#x41;\\u0041");
    }
    assertLinear(redactor, text.toString());
    assertThat(redactor.redact(text + " " + SECRET)).isEqualTo(text + " ***");
  }

  /**
   * A letter followed by thousands of combining marks of two classes out of order: the normaliser
   * sorts a segment's marks by insertion, its length squared (10,000 steps a character for 10,000
   * marks, 23 s for 160,000). A segment is cut at Unicode's stream-safe 30 marks.
   */
  @Test
  void aLongRunOfCombiningMarksCostsItsLengthNotItsSquare() {
    Redactor redactor = new Redactor();
    redactor.hold("Pässwörd-Straße");
    String marks = "a" + "\u0301\u0323".repeat(5_000);
    assertLinear(redactor, marks);
    assertThat(redactor.steps(marks + marks.substring(1).repeat(3)))
        .isLessThanOrEqualTo(5 * redactor.steps(marks));
    // A decomposed echo next to it is still found and masked.
    String decomposed =
        java.text.Normalizer.normalize("Pässwörd-Straße", java.text.Normalizer.Form.NFD);
    assertThat(redactor.redact(marks + " " + decomposed)).isEqualTo(marks + " ***");
  }

  /**
   * An upstream echoing a long secret (a key file's 3,000 characters) over and over: each place the
   * secret may start was compared as far as the match went, the text's length times the secret's.
   * Each match is now followed once.
   */
  @Test
  void aLongSecretEchoedOverAndOverCostsTheTextsLengthNotTimesTheSecrets() {
    Random random = new Random(2);
    StringBuilder key = new StringBuilder();
    for (int i = 0; i < 3_000; i++) {
      key.append((char) (33 + random.nextInt(94)));
    }
    Redactor redactor = new Redactor();
    redactor.hold(key.toString());
    String text = (key + " ").repeat(10);
    assertLinear(redactor, text);
    assertThat(redactor.redact(text)).isEqualTo("*** ".repeat(10));
    // Cut short, each echo still gives the secret away: masked up to where it stops.
    String cut = (key.substring(0, 2_000) + " ").repeat(10);
    assertThat(redactor.redact(cut)).isEqualTo("*** ".repeat(10));
  }

  /**
   * Text mixing what the fold views undo (line breaks, zero-width spaces, quoted-printable soft
   * breaks and {@code =XX}) with every other escape, around base64: each view is still built once
   * and joined once, so the work stays a few passes a character.
   */
  @Test
  void foldsInvisibleCharactersAndQuotedPrintableCostAFewPassesACharacter() {
    Redactor redactor = new Redactor();
    redactor.hold(SECRET);
    Random random = new Random(4);
    StringBuilder text = new StringBuilder();
    while (text.length() < 20_000) {
      for (int k = 0; k < 8; k++) {
        text.append(BASE64.charAt(random.nextInt(64)));
      }
      text.append("=\r\n=C3=A4\u200B\n%41&amp;\\u0041\u00AD+");
    }
    assertLinear(redactor, text.toString());
    String folded = SECRET.substring(0, 9) + "=\r\n" + SECRET.substring(9);
    assertThat(redactor.redact(text + " " + folded)).isEqualTo(text + " ***");
  }

  private static void assertLinear(Redactor redactor, String text) {
    assertThat(redactor.steps(text))
        .as("steps for %d characters", text.length())
        .isLessThanOrEqualTo((long) PER_CHARACTER * text.length());
  }
}
