package io.github.appsetmapper.secret;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.SecretForms;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RedactorTest {
  @Test
  void scrubsTheValueAndItsPercentEncodedForms() {
    Redactor redactor = new Redactor();
    redactor.hold("k3y/Zm9v+YmFy=:@1");
    assertThat(
            redactor.redact(
                "raw k3y/Zm9v+YmFy=:@1 query k3y%2FZm9v%2BYmFy%3D%3A%401 path k3y%2FZm9v%2BYmFy%3D:@1"))
        .isEqualTo("raw *** query *** path ***");
  }

  @Test
  void aSecretHoldingAnotherIsScrubbedWhole() {
    Redactor redactor = new Redactor();
    redactor.hold("abcd");
    redactor.hold("abcdefgh");
    assertThat(redactor.redact("x abcdefgh y abcd")).isEqualTo("x *** y ***");
  }

  /**
   * A text too short to hold any secret is not searched (the answer's short values): the bound is
   * the text's UTF-8 bytes, not its characters, so a secret of few characters and many bytes, or
   * half a long secret's run, is still found in a text exactly that long.
   */
  @Test
  void theShortTextBoundCountsBytesNotCharacters() {
    Redactor redactor = new Redactor();
    redactor.hold("é€ab"); // 4 characters, 7 bytes
    assertThat(redactor.redact("é€ab")).isEqualTo("***");
    assertThat(redactor.redact("€ab")).isEqualTo("€ab");
    Redactor runs = new Redactor();
    String token = "tok-0123456789abcdefghij"; // 24 bytes: any 12 of them give it away
    runs.hold(token);
    assertThat(runs.redact(token.substring(0, 12))).isEqualTo("***");
    assertThat(runs.redact(token.substring(0, 11))).isEqualTo(token.substring(0, 11));
    // Base64 of half the run, in a text as long as the run: decoded views are never longer.
    String encoded =
        java.util.Base64.getEncoder()
            .encodeToString(
                token.substring(0, 12).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertThat(runs.redact(encoded)).isEqualTo("***");
  }

  /**
   * Half a secret is counted in characters, as the promise says, and in bytes where that is fewer:
   * half of a secret whose last characters take three bytes each is its first ten ASCII ones, fewer
   * bytes than half its bytes (an outside tester's find).
   */
  @Test
  void halfASecretIsCountedInCharactersWhereItsBytesAreMore() {
    Redactor redactor = new Redactor();
    String secret = "abcdefghijklmnop€€€€"; // 20 characters, 28 bytes
    redactor.hold(secret);
    assertThat(redactor.redact("x " + secret.substring(0, 10) + " y")).isEqualTo("x *** y");
    assertThat(redactor.redact("x " + secret.substring(6, 16) + " y")).isEqualTo("x *** y");
    assertThat(redactor.redact("x " + secret.substring(10) + " y")).isEqualTo("x *** y");
    assertThat(redactor.redact("x " + secret.substring(0, 9) + " y"))
        .isEqualTo("x " + secret.substring(0, 9) + " y");
    // Where characters take more bytes than half the bytes, the bytes count: five of the eight
    // characters of "€€€€€€€€" are 15 of its 24 bytes, past half of them.
    Redactor euros = new Redactor();
    euros.hold("€€€€€€€€");
    assertThat(euros.redact("x €€€€ y")).isEqualTo("x *** y");
  }

  /**
   * A number is checked as the text it is written as, so that a secret of digits an upstream sent
   * as a bare number is masked in explain, a shadow difference and a recording as a text is: the
   * number becomes its redacted text; any other number stays the number it was.
   */
  @Test
  void aNumberHoldingASecretBecomesItsRedactedText() {
    Redactor redactor = new Redactor();
    redactor.hold("4815162342108");
    assertThat(redactor.redactScalar(4815162342108L)).isEqualTo("***");
    assertThat(redactor.redactScalar(new java.math.BigDecimal("4.815162342108E+12")))
        .isEqualTo("***");
    assertThat(redactor.redactScalar(-4815162342108.0)).isEqualTo("-***");
    assertThat(redactor.redactScalar(1234567L)).isEqualTo(1234567L);
    assertThat(redactor.redactScalar(true)).isEqualTo(true);
    assertThat(redactor.redactScalar("x 4815162342108")).isEqualTo("x ***");
  }

  @Test
  void shortValuesAreNotSecrets() {
    Redactor redactor = new Redactor();
    redactor.hold("abc");
    assertThat(redactor.redact("abc")).isEqualTo("abc");
    assertThat(redactor.size()).isZero();
  }

  @Nested
  class EveryWireForm {
    @ParameterizedTest
    @ValueSource(
        strings = {SecretForms.NASTY, "ghp_16C7e42F292c6912E7710c838347Ae178B4a", "pässwörd-€"})
    void eachEchoIsScrubbedWhereverItStands(String secret) {
      Redactor redactor = new Redactor();
      redactor.hold(secret);
      for (Map.Entry<String, String> echo : SecretForms.echoes("bot", secret).entrySet()) {
        String text = "upstream said: bad credentials " + echo.getValue() + " (see docs)";
        String redacted = redactor.redact(text);
        assertThat(SecretForms.leaks(redacted, secret))
            .as(echo.getKey() + ": " + redacted)
            .isEmpty();
        assertThat(redacted).as(echo.getKey()).startsWith("upstream said: bad credentials ");
        assertThat(redacted).as(echo.getKey()).endsWith(" (see docs)").contains("***");
      }
    }

    @Test
    void aSecretCutShortIsScrubbedFromEightCharactersOnAValueComputedFromOneOnlyWhole() {
      Redactor redactor = new Redactor();
      String secret = "tok-7f3a9c2e5b1d8f4a6c0e";
      redactor.hold(secret);
      assertThat(redactor.redact("invalid token " + secret.substring(0, 20) + "... (cut)"))
          .isEqualTo("invalid token ***... (cut)");
      assertThat(redactor.redact("ends with ..." + secret.substring(10)))
          .isEqualTo("ends with ...***");
      // Seven characters are ordinary text: shorter runs of a random token turn up by chance.
      assertThat(redactor.redact("prefix " + secret.substring(0, 7) + " only"))
          .isEqualTo("prefix " + secret.substring(0, 7) + " only");
      // A value computed from a secret may hold a template's own text: only the whole is a secret.
      try (io.github.appsetmapper.secret.DerivedSecrets derived = redactor.derived()) {
        derived.add(
            "https://api.example.com/items?token=" + secret.toUpperCase(java.util.Locale.ROOT));
        // A user name split off a credential is no secret of its own: it never blanks answers.
        derived.add("alice");
        assertThat(redactor.redact("row alice-app by alice")).isEqualTo("row alice-app by alice");
        assertThat(redactor.redact("GET https://api.example.com/items?page=2"))
            .isEqualTo("GET https://api.example.com/items?page=2");
        assertThat(
                redactor.redact(
                    "GET https://api.example.com/items?token="
                        + secret.toUpperCase(java.util.Locale.ROOT)))
            .isEqualTo("GET ***");
      }
    }

    @Test
    void aSecretInsideALongerBase64StringIsFoundAtEachAlignment() {
      Redactor redactor = new Redactor();
      String secret = "s3cr3t-v4lue-0f-the-upstream";
      redactor.hold(secret);
      for (String before : new String[] {"", "a", "ab", "abc", "{\"token\":\""}) {
        String json = before + secret + "\",\"scope\":\"read\"}";
        String encoded = java.util.Base64.getEncoder().encodeToString(json.getBytes());
        String redacted = redactor.redact("state=" + encoded);
        assertThat(SecretForms.leaks(redacted, secret)).as(before).isEmpty();
        assertThat(redacted).as(before).contains("***");
      }
    }

    @Test
    void textWithoutTheSecretIsLeftAlone() {
      Redactor redactor = new Redactor();
      redactor.hold(SecretForms.NASTY);
      String text =
          "GET https://api.example.com/v2/a%2Fb?q=%7E+x#f: answered 401 (Basic Ym90OnB3 \\u00e9)";
      assertThat(redactor.redact(text)).isEqualTo(text);
    }
  }

  @Nested
  class Cutting {
    @Test
    void anExcerptIsRedactedBeforeItIsCut() {
      Redactor redactor = new Redactor();
      String token = "tok_" + "9".repeat(60);
      redactor.hold(token);
      String said = "x".repeat(150) + " " + token;
      String excerpt = redactor.excerpt(said, 160);
      assertThat(excerpt).isEqualTo("x".repeat(150) + " ***");
      String longer = "y".repeat(140) + " " + token + " " + "z".repeat(100);
      assertThat(redactor.excerpt(longer, 160))
          .isEqualTo("y".repeat(140) + " *** " + "z".repeat(15) + "...");
    }

    @Test
    void anExcerptIsOneLineAndNeverCutsASurrogatePair() {
      Redactor redactor = new Redactor();
      assertThat(redactor.excerpt("a\n\tb   c", 10)).isEqualTo("a b c");
      assertThat(redactor.excerpt("abcd😀", 5)).isEqualTo("abcd...");
    }
  }

  @Nested
  class Lifetime {
    private final AtomicLong now = new AtomicLong();
    private final Redactor redactor = new Redactor(now::get, Duration.ofSeconds(60));

    @Test
    void aReleasedValueIsScrubbedThroughTheGracePeriodThenLetGo() {
      Redactor.Held held = redactor.hold("token-one-aaaa");
      held.release();
      held.release();
      now.addAndGet(Duration.ofSeconds(59).toNanos());
      assertThat(redactor.redact("token-one-aaaa")).isEqualTo("***");
      now.addAndGet(Duration.ofSeconds(2).toNanos());
      assertThat(redactor.redact("token-one-aaaa")).isEqualTo("token-one-aaaa");
      assertThat(redactor.size()).isZero();
    }

    @Test
    void aValueHeldTwiceStaysUntilBothLetGo() {
      Redactor.Held first = redactor.hold("shared-value");
      Redactor.Held second = redactor.hold("shared-value");
      first.release();
      now.addAndGet(Duration.ofMinutes(5).toNanos());
      assertThat(redactor.redact("shared-value")).isEqualTo("***");
      second.release();
      now.addAndGet(Duration.ofMinutes(5).toNanos());
      assertThat(redactor.size()).isZero();
    }

    @Test
    void aThousandTokensOneAfterAnotherLeaveOnlyTheLiveOnes() {
      Redactor.Held previous = null;
      for (int i = 0; i < 1000; i++) {
        Redactor.Held next = redactor.hold("token-" + i + "-value");
        if (previous != null) {
          previous.release();
        }
        previous = next;
        now.addAndGet(Duration.ofSeconds(1).toNanos());
      }
      // The live token and the ones released in the last 60 seconds.
      assertThat(redactor.size()).isEqualTo(60);
    }

    @Test
    void aRotatedFileLetsTheOldValueGo(@TempDir Path dir) throws Exception {
      Path file = dir.resolve("token");
      Files.writeString(file, "alpha-token-1234\n");
      // No run of eight characters in common: a shared run would scrub the old value too.
      FileSecret secret = new FileSecret(file, redactor);
      assertThat(secret.value()).isEqualTo("alpha-token-1234");
      replace(file, "omega-value-5678-longer\n");
      assertThat(secret.value()).isEqualTo("omega-value-5678-longer");
      assertThat(redactor.size()).isEqualTo(2);
      now.addAndGet(Duration.ofSeconds(61).toNanos());
      assertThat(redactor.size()).isEqualTo(1);
      assertThat(redactor.redact("alpha-token-1234 omega-value-5678-longer"))
          .isEqualTo("alpha-token-1234 ***");
    }

    private void replace(Path file, String content) throws IOException {
      Path next = file.resolveSibling("next");
      Files.writeString(next, content);
      Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
  }

  @Test
  void aFailureForTheLogKeepsItsClassesAndStackButNoSecret() {
    Redactor redactor = new Redactor();
    redactor.hold("hunter2-secret");
    IllegalStateException failure =
        new IllegalStateException(
            "call https://x/?key=hunter2-secret failed",
            new java.io.IOException("echo aHVudGVyMi1zZWNyZXQ="));
    Throwable scrubbed = redactor.scrub(failure);
    assertThat(scrubbed.getMessage())
        .isEqualTo("java.lang.IllegalStateException: call https://x/?key=*** failed");
    assertThat(scrubbed.getCause().getMessage()).isEqualTo("java.io.IOException: echo ***=");
    assertThat(scrubbed.getStackTrace()).isEqualTo(failure.getStackTrace());
  }

  /**
   * A secret echoed in another Unicode form, or quoted with HTML names in another case, is found:
   * an upstream's library may decompose {@code ä} into {@code a} and U+0308, write fullwidth
   * letters, or upper-case a page whole.
   */
  @Nested
  class OtherForms {
    @Test
    void aDecomposedEchoOfAComposedSecretAndTheOtherWayRound() {
      Redactor composed = new Redactor();
      composed.hold("p\u00e4ssw\u00f6rd-2024");
      assertThat(composed.redact("bad password pa\u0308sswo\u0308rd-2024 (401)"))
          .isEqualTo("bad password *** (401)");
      Redactor decomposed = new Redactor();
      decomposed.hold("pa\u0308sswo\u0308rd-2024");
      assertThat(decomposed.redact("bad password p\u00e4ssw\u00f6rd-2024 (401)"))
          .isEqualTo("bad password *** (401)");
      // Percent-encoded decomposed: the view with percent undone is normalised too.
      assertThat(composed.redact("next=/x?pw=pa%CC%88sswo%CC%88rd-2024&p=2"))
          .isEqualTo("next=/x?pw=***&p=2");
    }

    @Test
    void compatibilityFormsAreOneText() {
      Redactor redactor = new Redactor();
      redactor.hold("Secret-Token-42");
      assertThat(
              redactor.redact(
                  "got \uff33\uff45\uff43\uff52\uff45\uff54\uff0d\uff34\uff4f"
                      + "\uff4b\uff45\uff4e\uff0d\uff14\uff12 ok"))
          .isEqualTo("got *** ok");
      Redactor ligature = new Redactor();
      ligature.hold("\ufb01nal-answer-42");
      assertThat(ligature.redact("said final-answer-42!")).isEqualTo("said ***!");
    }

    @Test
    void htmlNamesInAnotherCase() {
      Redactor redactor = new Redactor();
      redactor.hold("caf\u00e9-\u20ac-p\u00e4ss");
      // Names upper-cased only: read as the lower-case names (é, not É).
      assertThat(redactor.redact("<p>caf&EACUTE;-&EURO;-p&AUML;ss</p>")).isEqualTo("<p>***</p>");
      // A page upper-cased whole: the secret too, so the capital letters.
      assertThat(redactor.redact("<P>CAF&EACUTE;-&EURO;-P&AUML;SS</P>")).isEqualTo("<P>***</P>");
      assertThat(redactor.redact("<p>caf&eacute;-&Euro;-p&auml;ss</p>")).isEqualTo("<p>***</p>");
    }

    @Test
    void textWithoutAnyOfItStaysAsItIs() {
      Redactor redactor = new Redactor();
      redactor.hold("p\u00e4ssw\u00f6rd-2024");
      String ascii = "an ordinary answer of plain ASCII words, long enough to be searched";
      assertThat(redactor.redact(ascii)).isSameAs(ascii);
      String other = "e\u0301t\u00e9 \uff21\uff22 &EURO; caf\u00e9";
      assertThat(redactor.redact(other)).isSameAs(other);
    }
  }
}
