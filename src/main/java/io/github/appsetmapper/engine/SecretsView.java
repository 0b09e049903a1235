package io.github.appsetmapper.engine;

import io.github.appsetmapper.secret.SecretSource;
import io.github.appsetmapper.secret.SecretUnavailableException;
import io.github.appsetmapper.upstream.call.Deadline;
import io.github.appsetmapper.upstream.call.RequestFailure;
import java.util.AbstractMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code secret} as expressions see it: each value read only when a template asks for it, so a
 * mapping never reads secrets it does not use on this path.
 */
final class SecretsView extends AbstractMap<String, Object> {
  private final Map<String, SecretSource> sources;
  private final Deadline deadline;

  SecretsView(Map<String, SecretSource> sources, Deadline deadline) {
    this.sources = sources;
    this.deadline = deadline;
  }

  /** Carries a checked failure through SpEL, which only lets runtime exceptions pass. */
  static final class Unavailable extends RuntimeException {
    final RequestFailure failure;

    Unavailable(RequestFailure failure) {
      super(failure.getMessage(), null, false, false);
      this.failure = failure;
    }
  }

  /** The value of secret {@code name}; one that cannot be read is a 500 naming where it looked. */
  static String read(Map<String, SecretSource> sources, String name, Deadline deadline)
      throws RequestFailure {
    try {
      // A file that hangs (a FIFO, a hung mount) is given up on when the deadline runs out.
      return sources.get(name).value(deadline.remaining());
    } catch (SecretUnavailableException e) {
      throw new RequestFailure(
              "secret '" + name + "': " + e.getMessage(), RequestFailure.Kind.SECRET)
          .causedBy(e);
    }
  }

  @Override
  public Object get(Object key) {
    if (!sources.containsKey(key)) {
      return null;
    }
    try {
      return read(sources, (String) key, deadline);
    } catch (RequestFailure e) {
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
