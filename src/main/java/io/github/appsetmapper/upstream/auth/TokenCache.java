package io.github.appsetmapper.upstream.auth;

import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.upstream.call.Deadline;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.Token;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Tokens shared by every call of the server, by cache key. A token is fetched once however many
 * calls need it at the same moment (the others wait for that fetch), reused until shortly before it
 * expires, and replaced at most once per 401: a call whose token was refused invalidates that token
 * only, so calls refused together share one new token. The redactor holds each token while the
 * cache does: a token replaced, expired or trimmed away is let go (and scrubbed for the redactor's
 * grace period after, while calls that took it may still be in flight).
 */
public final class TokenCache {
  /** Fetches a new token (one HTTP exchange or a few). */
  @FunctionalInterface
  public interface Fetch {
    Token fetch() throws RequestFailure;
  }

  private static final int MAX_ENTRIES = 1000;

  /** How often tokens past their refresh time are dropped even when no call asks for them. */
  private static final java.time.Duration SWEEP = java.time.Duration.ofMinutes(1);

  /** A token being fetched or fetched, and its hold on the redactor once it is there. */
  private static final class Entry {
    final CompletableFuture<Token> future = new CompletableFuture<>();
    volatile Redactor.Held held;
  }

  private final Map<String, Entry> entries = new ConcurrentHashMap<>();
  private final Clock clock;
  private final Redactor redactor;
  private volatile java.time.Instant nextSweep;

  public TokenCache(Clock clock, Redactor redactor) {
    this.clock = clock;
    this.redactor = redactor;
    this.nextSweep = clock.instant().plus(SWEEP);
  }

  /** A fresh cached token, or null; never fetches. */
  public Token peek(String key) {
    Entry held = entries.get(key);
    CompletableFuture<Token> entry = held == null ? null : held.future;
    if (entry == null || !entry.isDone() || entry.isCompletedExceptionally()) {
      return null;
    }
    Token token = entry.join();
    return token.fresh(clock.instant()) ? token : null;
  }

  /** The cached token when fresh, else one fetch shared by every caller of this key. */
  public Token get(String key, Deadline deadline, Fetch fetch) throws RequestFailure {
    sweep();
    while (true) {
      Entry held = entries.get(key);
      if (held != null) {
        CompletableFuture<Token> entry = held.future;
        if (!entry.isDone()) {
          return await(entry, deadline);
        }
        if (!entry.isCompletedExceptionally()) {
          Token token = entry.join();
          if (token.fresh(clock.instant())) {
            return token;
          }
        }
        drop(key, held);
        continue;
      }
      Entry mine = new Entry();
      if (entries.putIfAbsent(key, mine) != null) {
        continue;
      }
      trim();
      try {
        Token token = fetch.fetch();
        mine.held = redactor.hold(token.value());
        mine.future.complete(token);
        return token;
      } catch (RequestFailure | RuntimeException e) {
        mine.future.completeExceptionally(e);
        drop(key, mine);
        throw e;
      }
    }
  }

  /**
   * After a 401 for {@code refused}: drops that token (unless another call already replaced it) and
   * returns the current one, fetching it when needed.
   */
  public Token refresh(String key, Token refused, Deadline deadline, Fetch fetch)
      throws RequestFailure {
    Entry held = entries.get(key);
    if (held != null
        && held.future.isDone()
        && !held.future.isCompletedExceptionally()
        && held.future.join() == refused) {
      drop(key, held);
    }
    return get(key, deadline, fetch);
  }

  /** The number of tokens held or being fetched (for tests and metrics). */
  public int size() {
    return entries.size();
  }

  private void trim() {
    if (entries.size() <= MAX_ENTRIES) {
      return;
    }
    dropStale();
    if (entries.size() > MAX_ENTRIES) {
      entries.forEach(
          (key, held) -> {
            if (held.future.isDone()) {
              drop(key, held);
            }
          });
    }
  }

  /** Drops the tokens past their refresh time once a minute, so the redactor lets them go. */
  private void sweep() {
    java.time.Instant now = clock.instant();
    if (now.isBefore(nextSweep)) {
      return;
    }
    nextSweep = now.plus(SWEEP);
    dropStale();
  }

  private void dropStale() {
    java.time.Instant now = clock.instant();
    entries.forEach(
        (key, held) -> {
          CompletableFuture<Token> entry = held.future;
          if (entry.isDone() && (entry.isCompletedExceptionally() || !entry.join().fresh(now))) {
            drop(key, held);
          }
        });
  }

  /** Removes the entry (unless another replaced it) and lets the redactor go of its token. */
  private void drop(String key, Entry held) {
    if (entries.remove(key, held) && held.held != null) {
      held.held.release();
    }
  }

  private static Token await(CompletableFuture<Token> entry, Deadline deadline)
      throws RequestFailure {
    try {
      return entry.get(deadline.remaining().toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new RequestFailure(
          "waiting for a token: the deadline ran out", RequestFailure.Kind.DEADLINE);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RequestFailure("waiting for a token: interrupted");
    } catch (ExecutionException e) {
      throw RequestFailure.unwrap(e);
    }
  }
}
