package io.github.appsetmapper.secret;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.ByteForms;
import io.github.appsetmapper.testing.SecretForms;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A non-ASCII secret's bytes read in another charset or written in a byte notation: each echo is
 * scrubbed wherever it stands, an ASCII secret gets no form more, and a secret's forms are bounded.
 */
class ByteEchoesTest {
  @ParameterizedTest
  @ValueSource(strings = {ByteForms.LATIN1, ByteForms.WINDOWS, SecretForms.NASTY, "pässwörd-€"})
  void eachByteEchoIsScrubbedWhereverItStands(String secret) {
    Redactor redactor = new Redactor();
    redactor.hold(secret);
    // Every echo checked, so that a failure names each form that leaks.
    SoftAssertions softly = new SoftAssertions();
    for (Map.Entry<String, String> echo : ByteForms.echoes("bot", secret).entrySet()) {
      String text = "upstream said: bad credentials " + echo.getValue() + " (see docs)";
      String redacted = redactor.redact(text);
      softly
          .assertThat(ByteForms.leaks(redacted, secret))
          .as(echo.getKey() + ": " + redacted)
          .isEmpty();
      softly.assertThat(redacted).as(echo.getKey()).startsWith("upstream said: bad credentials ");
      softly.assertThat(redacted).as(echo.getKey()).endsWith(" (see docs)").contains("***");
    }
    softly.assertAll();
  }

  @Test
  void theOutsideTestersEchoesAreMasked() {
    Redactor redactor = new Redactor();
    redactor.hold(ByteForms.LATIN1);
    assertThat(redactor.redact("X-Key: 50e4737377f672642d53747261df652d4bf66c6e2d3932615a"))
        .isEqualTo("X-Key: ***");
    assertThat(redactor.redact("dump UORzc3f2cmQtU3RyYd9lLUv2bG4tOTJhWg== end"))
        .isEqualTo("dump ***== end");
    assertThat(redactor.redact("got b'P\\xe4ssw\\xf6rd-Stra\\xdfe-K\\xf6ln-92aZ'"))
        .isEqualTo("got b'***'");
    assertThat(
            redactor.redact("got b'P\\xc3\\xa4ssw\\xc3\\xb6rd-Stra\\xc3\\x9fe-K\\xc3\\xb6ln-92aZ'"))
        .isEqualTo("got b'***'");
    assertThat(redactor.redact("got \"P\\344ssw\\366rd-Stra\\337e-K\\366ln-92aZ\""))
        .isEqualTo("got \"***\"");
    assertThat(redactor.redact("password PÃ¤sswÃ¶rd-StraÃŸe-KÃ¶ln-92aZ is wrong"))
        .isEqualTo("password *** is wrong");
    assertThat(redactor.redact("password PÃ¤sswÃ¶rd-StraÃ\u009Fe-KÃ¶ln-92aZ is wrong"))
        .isEqualTo("password *** is wrong");
  }

  /**
   * Half a secret is counted in its characters in a single-byte charset's bytes too: 0x80 for '€'
   * is one character there, not a UTF-8 continuation byte. Counted as UTF-8, the six '€' of this
   * secret were no characters, half of it nine ASCII ones, and "Rechnung-20" in any text was
   * masked.
   */
  @Test
  void halfOfASingleByteFormIsCountedInItsBytes() {
    String secret = "Rechnung-2024-x9-€€€€€€"; // 23 characters: half is 12
    Redactor redactor = new Redactor();
    redactor.hold(secret);
    assertThat(redactor.redact("see Rechnung-20 here")).isEqualTo("see Rechnung-20 here");
    assertThat(redactor.redact("see Rechnung-2024 here")).isEqualTo("see *** here");
    byte[] bytes = secret.getBytes(java.nio.charset.Charset.forName("windows-1252"));
    String eleven = Base64.getEncoder().encodeToString(Arrays.copyOfRange(bytes, 12, 23));
    String twelve = Base64.getEncoder().encodeToString(Arrays.copyOfRange(bytes, 11, 23));
    assertThat(redactor.redact("state " + eleven)).isEqualTo("state " + eleven);
    assertThat(redactor.redact("state " + twelve)).startsWith("state ***");
  }

  @Test
  void anAsciiSecretHasNoByteFormOfItsOwn() {
    String token = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
    assertThat(ByteEchoes.of(token)).isEmpty();
    assertThat(ByteEchoes.bytes(token)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {ByteForms.LATIN1, ByteForms.WINDOWS, SecretForms.NASTY, "é€😀\u0081x"})
  void aSecretHasAtMostTwelveTextsAndOneByteForm(String secret) {
    assertThat(ByteEchoes.of(secret)).hasSizeLessThanOrEqualTo(ByteEchoes.MOST);
    assertThat(ByteEchoes.bytes(secret)).hasSizeLessThanOrEqualTo(1);
  }

  @Test
  void otherTextInTheseNotationsIsLeftAlone() {
    Redactor redactor = new Redactor();
    redactor.hold(ByteForms.LATIN1);
    String text =
        "b'caf\\xe9 cr\\xe8me' \"caf\\351\" cafÃ© 636166e9 Y2Fm6SBjcuhtZQ== M%FCnchen-Stra%DFe";
    assertThat(redactor.redact(text)).isEqualTo(text);
  }
}
