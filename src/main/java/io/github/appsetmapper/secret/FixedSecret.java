package io.github.appsetmapper.secret;

/** A secret given directly: by a mapping test file, never by a mapping. */
public final class FixedSecret implements SecretSource {
  private final String value;

  public FixedSecret(String value, Redactor redactor) {
    this.value = new HeldValue(this, redactor).use(value.strip());
  }

  @Override
  public String value() {
    return value;
  }

  @Override
  public String describe() {
    return "a value given by the test file";
  }
}
