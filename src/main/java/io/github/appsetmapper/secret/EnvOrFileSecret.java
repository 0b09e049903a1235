package io.github.appsetmapper.secret;

/** {@code {file, env}} together: the variable when it is set, else the file. */
public final class EnvOrFileSecret implements SecretSource {
  private final EnvSecret env;
  private final FileSecret file;

  public EnvOrFileSecret(EnvSecret env, FileSecret file) {
    this.env = env;
    this.file = file;
  }

  @Override
  public String value() throws SecretUnavailableException {
    return env.isSet() ? env.value() : file.value();
  }

  @Override
  public String describe() {
    return env.describe() + " or " + file.describe();
  }
}
