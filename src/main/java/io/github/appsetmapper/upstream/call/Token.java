package io.github.appsetmapper.upstream.call;

import java.time.Duration;
import java.time.Instant;

/**
 * A fetched token and when to stop using it: {@code refreshAt} is shortly before the expiry (a
 * tenth of the lifetime, at most a minute), null when the issuer gave no expiry (then the token is
 * used until the upstream answers 401).
 */
public record Token(String value, Instant refreshAt) {
  private static final Duration MAX_MARGIN = Duration.ofMinutes(1);

  /** A token valid for {@code lifetime} from {@code issued}, or without expiry when null. */
  public static Token of(String value, Instant issued, Duration lifetime) {
    if (lifetime == null) {
      return new Token(value, null);
    }
    Duration margin = lifetime.dividedBy(10);
    if (margin.compareTo(MAX_MARGIN) > 0) {
      margin = MAX_MARGIN;
    }
    return new Token(value, issued.plus(lifetime).minus(margin));
  }

  /** A token that expires at {@code expiry} (an absolute time, as GitHub gives it). */
  public static Token until(String value, Instant issued, Instant expiry) {
    Duration lifetime = Duration.between(issued, expiry);
    return of(value, issued, lifetime.isNegative() ? Duration.ZERO : lifetime);
  }

  public boolean fresh(Instant now) {
    return refreshAt == null || now.isBefore(refreshAt);
  }

  @Override
  public String toString() {
    return "Token[***]";
  }
}
