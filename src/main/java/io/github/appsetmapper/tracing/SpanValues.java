package io.github.appsetmapper.tracing;

import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.text.Printable;
import java.time.Instant;

/**
 * What every span attribute, name and status passes through: the redactor (a secret known to it
 * never reaches a collector), and a bound on length. Also turns {@link System#nanoTime()} marks
 * into the wall-clock instants spans are stamped with.
 */
final class SpanValues {
  private static final int MAX = 256;

  private final Redactor redactor;

  SpanValues(Redactor redactor) {
    this.redactor = redactor;
  }

  String of(String value) {
    if (value == null) {
      return "";
    }
    String shown = redactor.redact(value);
    return Printable.cut(shown, MAX);
  }

  static Instant instant(long nanoTime) {
    return Instant.now().minusNanos(Math.max(0, System.nanoTime() - nanoTime));
  }
}
