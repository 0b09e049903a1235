package io.github.appsetmapper.secret;

import java.util.function.Function;

/** A secret in an environment variable. */
public final class EnvSecret implements SecretSource {
  private final String variable;
  private final Function<String, String> environment;
  private final HeldValue held;

  public EnvSecret(String variable, Function<String, String> environment, Redactor redactor) {
    this.variable = variable;
    this.environment = environment;
    this.held = new HeldValue(this, redactor);
  }

  boolean isSet() {
    String value = environment.apply(variable);
    return value != null && !value.isBlank();
  }

  @Override
  public String value() throws SecretUnavailableException {
    String value = environment.apply(variable);
    if (value == null || value.isBlank()) {
      throw new SecretUnavailableException("environment variable " + variable + " is not set");
    }
    return held.use(value.strip());
  }

  @Override
  public String describe() {
    return "environment variable " + variable;
  }
}
