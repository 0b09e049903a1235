package io.github.appsetmapper.secret;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The values one getparams computed from secrets: each rendered hole that reads {@code secret} (a
 * part of one, {@code split(':')[1]}, {@code toLowerCase()}, {@code #urlEncode}, a secret joined to
 * other text). The redactor knows a secret only as a whole, so a value a method made of it would
 * reach an answer, explain or a log line in clear; held here, it is scrubbed like the secret itself
 * (in every encoding the {@link Redactor} knows) from the moment it is rendered, and let go when
 * the getparams ends, then scrubbed for {@link Redactor#GRACE} like any value let go. Thread-safe:
 * enrich steps render in parallel.
 */
public final class DerivedSecrets implements AutoCloseable {
  /** Holds nothing: for what renders no request. */
  public static final DerivedSecrets NONE = new DerivedSecrets(null);

  private final Redactor redactor;
  private final Set<String> seen = new HashSet<>();
  private final List<Redactor.Held> held = new ArrayList<>();
  private boolean closed;

  DerivedSecrets(Redactor redactor) {
    this.redactor = redactor;
  }

  /** Scrubs {@code value} (as text) until this getparams ends, and for the grace period after. */
  public void add(String value) {
    // Shorter than eight characters, a value split off a credential is a user name ("alice") far
    // more often than a secret, and scrubbing it would refuse every answer naming that user, in
    // every mapping; the credential it came from is scrubbed whole and by its runs.
    if (redactor == null || value == null || value.length() < NeedleIndex.RUN) {
      return;
    }
    synchronized (this) {
      if (closed) {
        // A straggling render after the end: still scrubbed for the grace period.
        redactor.rememberWhole(value);
        return;
      }
      if (seen.add(value)) {
        held.add(redactor.holdWhole(value));
      }
    }
  }

  /** Lets every value go (each is still scrubbed for the grace period). Idempotent. */
  @Override
  public synchronized void close() {
    closed = true;
    held.forEach(Redactor.Held::release);
    held.clear();
    seen.clear();
  }
}
