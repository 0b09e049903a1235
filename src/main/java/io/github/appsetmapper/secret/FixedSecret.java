package io.github.appsetmapper.secret;

/**
 * A secret given directly: by a mapping test file, never by a mapping. Such a value is a stand-in
 * ({@code recorded-github}), named after what it stands for: scrubbed whole, never by its runs,
 * which are the words of names and hosts ("azure-devops" in a mapping called azure-devops-pulls).
 */
public final class FixedSecret implements SecretSource {
  private final String value;

  public FixedSecret(String value, Redactor redactor) {
    this.value = new HeldValue(this, redactor, true).use(value.strip());
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
