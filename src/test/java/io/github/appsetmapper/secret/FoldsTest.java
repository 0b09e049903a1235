package io.github.appsetmapper.secret;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.SecretForms;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The views that join what splits a secret (line folds, invisible characters, quoted-printable soft
 * breaks) and the rewritten forms (reversed, ROT13, doubled): what they find, and that ordinary
 * values, which a false mask would corrupt as parameters, pass through them untouched.
 */
class FoldsTest {
  private static final String PEM =
      "-----BEGIN KEY-----\nMIIBVQIBADANBgkqhkiG9w0BAQEF\nAASCAT8wggE7AgEAAkEAq7BFUpkG\n-----END KEY-----";

  private static Redactor holding(String... secrets) {
    Redactor redactor = new Redactor();
    for (String secret : secrets) {
      redactor.hold(secret);
    }
    return redactor;
  }

  @Test
  void ordinaryValuesPassEveryNewViewUntouched() {
    Redactor redactor =
        holding(
            SecretForms.NASTY,
            "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
            "pässwörd-€",
            "registry-pass-2024",
            PEM);
    byte[] random = new byte[300];
    new Random(3).nextBytes(random);
    List<String> ordinary =
        List.of(
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            "9fceb02d0ae598e95dc970b74767f19372d61af8",
            "feature/login-page",
            "release/2024.10",
            "refs/heads/main",
            "registry.example.com/team/app:v1.2.3",
            "line one\nline two\r\nline three",
            "a=3Db=C3=A4=\r\nc=41",
            "name=value&x=1&y=%41",
            "co\u00ADoperate with\u200Bzero\uFEFFwidths",
            "{\"message\":\"first\\nsecond\\r\\nthird \\u200b\"}",
            Base64.getMimeEncoder().encodeToString(random),
            "Wir haben =C3=84nderungen; Gr=C3=BC=C3=9Fe",
            "cnffjbeq ffnc-lergfvtre rr-ggaapp");
    for (String text : ordinary) {
      assertThat(redactor.redact(text)).as(text).isEqualTo(text);
      assertThat(redactor.redactScalar(text)).as(text).isEqualTo(text);
    }
  }

  @Test
  void aSecretHoldingLineBreaksIsFoundWithOtherLineEndingsAndJoined() {
    Redactor redactor = holding(PEM);
    for (String echo : List.of(PEM, PEM.replace("\n", "\r\n"), PEM.replace("\n", ""))) {
      String redacted = redactor.redact("upstream said " + echo + " (end)");
      assertThat(redacted).as(echo).isEqualTo("upstream said *** (end)");
    }
    assertThat(redactor.redact("key:\n" + PEM + "\n")).isEqualTo("key:\n***\n");
  }

  @Test
  void aSecretSplitByAnEscapedLineBreakInJsonIsJoined() {
    String secret = "s3cr3t-v4lue-0f-the-upstream";
    Redactor redactor = holding(secret);
    String json = "{\"error\":\"bad s3cr3t-v4l\\r\\nue-0f-the-upstream\"}";
    assertThat(redactor.redact(json)).isEqualTo("{\"error\":\"bad ***\"}");
  }

  @Test
  void anExcerptMasksASecretFoldedOverLinesAndOneHoldingASpaceEchoedWithATab() {
    Redactor redactor = holding("s3cr3t-v4lue-0f-the-upstream", "correct horse battery");
    assertThat(redactor.excerpt("denied\r\ns3cr3t-v4l=\r\nue-0f-the-upstream\r\n", 200))
        .isEqualTo("denied ***");
    assertThat(redactor.excerpt("denied s3cr3t-v4l\nue-0f-the-upstream", 200))
        .isEqualTo("denied ***");
    assertThat(redactor.excerpt("denied correct\thorse\nbattery!", 200)).isEqualTo("denied ***!");
  }

  @Test
  void quotedPrintableOfLatin1BytesIsFound() {
    String secret = "Pässwörd-Straße";
    Redactor redactor = holding(secret);
    byte[] latin1 = secret.getBytes(StandardCharsets.ISO_8859_1);
    StringBuilder qp = new StringBuilder();
    for (byte b : latin1) {
      int c = b & 0xFF;
      qp.append(c < 0x80 ? String.valueOf((char) c) : String.format("=%02x", c));
    }
    assertThat(redactor.redact("denied " + qp + ".")).isEqualTo("denied ***.");
  }

  @Test
  void theRewrittenFormsAreFoundCutShortToo() {
    String secret = "tok-7f3a9c2e5b1d8f4a6c0e";
    Redactor redactor = holding(secret);
    String reversed = new StringBuilder(secret).reverse().toString();
    assertThat(redactor.redact("x " + reversed.substring(0, 14) + " y")).isEqualTo("x *** y");
    assertThat(redactor.redact("x " + SecretForms.rot13(secret) + " y")).isEqualTo("x *** y");
    assertThat(redactor.redact("x " + SecretForms.doubled(secret) + " y")).isEqualTo("x *** y");
  }

  /**
   * A fold with the next line indented (a header's CRLF and space, RFC 5322's CRLF and tab, text
   * wrapped with an indent) and the characters that show as nothing beyond the zero-width ones
   * (direction marks and embeddings, the invisible separator, the grapheme joiner, a variation
   * selector) split the secret as a bare line break does (an outside tester's MEDIUM and LOW: the
   * part after the fold, and the whole secret, stayed readable).
   */
  @Test
  void foldsWithAnIndentAndOtherInvisibleCharactersAreJoined() {
    String secret = "Tk7Zw8qPa55w0rdXy9Lm4";
    Redactor redactor = holding(secret);
    for (String fold : List.of("\r\n ", "\r\n\t", "\n    ", "\r\n \t ")) {
      String text = "folded " + secret.substring(0, 11) + fold + secret.substring(11) + " end";
      assertThat(redactor.redact(text)).as(fold).isEqualTo("folded *** end");
    }
    for (String mark :
        List.of("\u200E", "\u200F", "\u2063", "\u034F", "\uFE0F", "\u202A", "\u2066")) {
      StringBuilder spread = new StringBuilder();
      for (char c : secret.toCharArray()) {
        spread.append(c).append(mark);
      }
      assertThat(redactor.redact("x " + spread + " y")).as(mark).doesNotContain("w0rdXy9");
    }
  }
}
