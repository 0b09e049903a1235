package io.github.appsetmapper.upstream;

import io.github.appsetmapper.upstream.call.Deadline;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.Upstream;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import io.github.appsetmapper.upstream.call.WireTrace;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * Retries idempotent calls ({@code GET}, {@code HEAD}, {@code OPTIONS}, {@code PUT}, {@code
 * DELETE}) that could not connect or were answered 429, 502, 503 or 504, up to the call's {@code
 * retries}. The wait doubles from 200 ms (with jitter: half of it fixed, half random, at most 5 s)
 * unless the answer says {@code Retry-After} (seconds or an HTTP date), which is honoured. A wait
 * that would outlast the deadline is not made: the last answer (or failure) stands, and says why.
 */
public final class RetryingUpstream implements Upstream {
  private static final Set<String> IDEMPOTENT = Set.of("GET", "HEAD", "OPTIONS", "PUT", "DELETE");
  private static final Set<Integer> RETRYABLE = Set.of(429, 502, 503, 504);
  private static final Duration BASE = Duration.ofMillis(200);
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);

  private final Upstream next;
  private final Supplier<Instant> clock;

  public RetryingUpstream(Upstream next) {
    this(next, Instant::now);
  }

  RetryingUpstream(Upstream next, Supplier<Instant> clock) {
    this.next = next;
    this.clock = clock;
  }

  @Override
  public UpstreamResponse exchange(UpstreamRequest request) throws RequestFailure {
    WireTrace wire = request.settings().wire();
    if (wire == WireTrace.NONE) {
      return attempts(request);
    }
    // One client span for the call, its retries counted on it; its context goes in each attempt.
    WireTrace.Sending sending = wire.sending(request);
    UpstreamResponse response = null;
    RequestFailure failure = null;
    try {
      response = attempts(request.withSettings(request.settings().withWire(sending)));
      return response;
    } catch (RequestFailure e) {
      failure = e;
      throw e;
    } finally {
      try {
        sending.ended(response, response == null ? 0 : response.attempts(), failure);
      } catch (RuntimeException e) {
        // Tracing never fails a call.
      }
    }
  }

  private UpstreamResponse attempts(UpstreamRequest request) throws RequestFailure {
    int retries = IDEMPOTENT.contains(request.method()) ? request.settings().retries() : 0;
    Deadline deadline = request.settings().deadline();
    for (int attempt = 1; ; attempt++) {
      UpstreamResponse response;
      try {
        response = next.exchange(request);
      } catch (RequestFailure e) {
        if (e.kind() != RequestFailure.Kind.CONNECT || attempt > retries) {
          throw attempt == 1 ? e : e.adding(" after " + attempt + " attempts");
        }
        Duration wait = backoff(attempt);
        if (wait.compareTo(deadline.remaining()) >= 0) {
          throw e.adding(" (" + attempt + " attempts; no time left for another)");
        }
        sleep(wait);
        continue;
      }
      if (!RETRYABLE.contains(response.status()) || attempt > retries) {
        return response.withAttempts(attempt, null);
      }
      Duration retryAfter = retryAfter(response.headers().first("Retry-After"));
      Duration wait = retryAfter != null ? retryAfter : backoff(attempt);
      if (wait.compareTo(deadline.remaining()) >= 0) {
        return response.withAttempts(
            attempt,
            retryAfter != null
                ? "Retry-After " + retryAfter.toSeconds() + "s is past the deadline"
                : "no time left for another attempt");
      }
      sleep(wait);
    }
  }

  static Duration backoff(int attempt) {
    long full = BASE.toMillis() << Math.min(attempt - 1, 10);
    full = Math.min(full, MAX_BACKOFF.toMillis());
    long half = full / 2;
    return Duration.ofMillis(half + ThreadLocalRandom.current().nextLong(half + 1));
  }

  /** {@code Retry-After}: delay-seconds or an HTTP date; null when absent or unreadable. */
  Duration retryAfter(String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    String text = value.trim();
    if (text.matches("\\d{1,9}")) {
      return Duration.ofSeconds(Long.parseLong(text));
    }
    try {
      Instant at = ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
      Duration wait = Duration.between(clock.get(), at);
      return wait.isNegative() ? Duration.ZERO : wait;
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static void sleep(Duration wait) throws RequestFailure {
    try {
      Thread.sleep(wait.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RequestFailure("interrupted while waiting to retry");
    }
  }

  @Override
  public void close() {
    next.close();
  }
}
