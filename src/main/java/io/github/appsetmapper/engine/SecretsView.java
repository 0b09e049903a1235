package io.github.appsetmapper.engine;

import io.github.appsetmapper.secret.SecretSource;
import io.github.appsetmapper.secret.SecretUnavailableException;
import java.util.AbstractMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code secret} as expressions see it: each value read only when a template asks for it, so a
 * mapping never reads secrets it does not use on this path.
 */
final class SecretsView extends AbstractMap<String, Object> {
  private final Map<String, SecretSource> sources;

  SecretsView(Map<String, SecretSource> sources) {
    this.sources = sources;
  }

  /** Carries a checked failure through SpEL, which only lets runtime exceptions pass. */
  static final class Unavailable extends RuntimeException {
    final SecretUnavailableException cause;

    Unavailable(SecretUnavailableException cause) {
      super(cause.getMessage(), null, false, false);
      this.cause = cause;
    }
  }

  @Override
  public Object get(Object key) {
    SecretSource source = sources.get(key);
    if (source == null) {
      return null;
    }
    try {
      return source.value();
    } catch (SecretUnavailableException e) {
      throw new Unavailable(e);
    }
  }

  @Override
  public boolean containsKey(Object key) {
    return sources.containsKey(key);
  }

  @Override
  public Set<Entry<String, Object>> entrySet() {
    // Listing would read every secret; expressions only ever name one.
    return Set.of();
  }

  @Override
  public String toString() {
    return "{secrets}";
  }
}
