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
    return value(FileSecret.MOST);
  }

  @Override
  public String value(java.time.Duration within) throws SecretUnavailableException {
    if (env.isSet()) {
      return env.value();
    }
    try {
      return file.value(within);
    } catch (SecretUnavailableException e) {
      // Both places were looked at: say so, so that either can be fixed.
      throw new SecretUnavailableException(
          e.getMessage() + ", and " + env.describe() + " is not set");
    }
  }

  @Override
  public String describe() {
    return env.describe() + " or " + file.describe();
  }
}
