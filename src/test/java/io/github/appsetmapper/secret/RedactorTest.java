package io.github.appsetmapper.secret;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RedactorTest {
  @Test
  void scrubsTheValueAndItsPercentEncodedForms() {
    Redactor redactor = new Redactor();
    redactor.remember("k3y/Zm9v+YmFy=:@1");
    assertThat(
            redactor.redact(
                "raw k3y/Zm9v+YmFy=:@1 query k3y%2FZm9v%2BYmFy%3D%3A%401 path k3y%2FZm9v%2BYmFy%3D:@1"))
        .isEqualTo("raw *** query *** path ***");
  }

  @Test
  void aSecretHoldingAnotherIsScrubbedWhole() {
    Redactor redactor = new Redactor();
    redactor.remember("abcd");
    redactor.remember("abcdefgh");
    assertThat(redactor.redact("x abcdefgh y abcd")).isEqualTo("x *** y ***");
  }

  @Test
  void shortValuesAreNotSecrets() {
    Redactor redactor = new Redactor();
    redactor.remember("abc");
    assertThat(redactor.redact("abc")).isEqualTo("abc");
  }
}
