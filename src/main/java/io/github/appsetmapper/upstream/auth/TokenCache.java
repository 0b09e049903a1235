package io.github.appsetmapper.upstream.auth;

import io.github.appsetmapper.upstream.Deadline;
import io.github.appsetmapper.upstream.UpstreamException;
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
 * only, so calls refused together share one new token.
 */
public final class TokenCache {
  /** Fetches a new token (one HTTP exchange or a few). */
  @FunctionalInterface
  public interface Fetch {
    Token fetch() throws UpstreamException;
  }

  private static final int MAX_ENTRIES = 1000;

  private final Map<String, CompletableFuture<Token>> entries = new ConcurrentHashMap<>();
  private final Clock clock;

  public TokenCache(Clock clock) {
    this.clock = clock;
  }

  /** A fresh cached token, or null; never fetches. */
  public Token peek(String key) {
    CompletableFuture<Token> entry = entries.get(key);
    if (entry == null || !entry.isDone() || entry.isCompletedExceptionally()) {
      return null;
    }
    Token token = entry.join();
    return token.fresh(clock.instant()) ? token : null;
  }

  /** The cached token when fresh, else one fetch shared by every caller of this key. */
  public Token get(String key, Deadline deadline, Fetch fetch) throws UpstreamException {
    while (true) {
      CompletableFuture<Token> entry = entries.get(key);
      if (entry != null) {
        if (!entry.isDone()) {
          return await(entry, deadline);
        }
        if (!entry.isCompletedExceptionally()) {
          Token token = entry.join();
          if (token.fresh(clock.instant())) {
            return token;
          }
        }
        entries.remove(key, entry);
        continue;
      }
      CompletableFuture<Token> mine = new CompletableFuture<>();
      if (entries.putIfAbsent(key, mine) != null) {
        continue;
      }
      trim();
      try {
        Token token = fetch.fetch();
        mine.complete(token);
        return token;
      } catch (UpstreamException | RuntimeException e) {
        mine.completeExceptionally(e);
        entries.remove(key, mine);
        throw e;
      }
    }
  }

  /**
   * After a 401 for {@code refused}: drops that token (unless another call already replaced it) and
   * returns the current one, fetching it when needed.
   */
  public Token refresh(String key, Token refused, Deadline deadline, Fetch fetch)
      throws UpstreamException {
    CompletableFuture<Token> entry = entries.get(key);
    if (entry != null
        && entry.isDone()
        && !entry.isCompletedExceptionally()
        && entry.join() == refused) {
      entries.remove(key, entry);
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
    var now = clock.instant();
    entries
        .entrySet()
        .removeIf(
            e ->
                e.getValue().isDone()
                    && (e.getValue().isCompletedExceptionally()
                        || !e.getValue().join().fresh(now)));
    if (entries.size() > MAX_ENTRIES) {
      entries.entrySet().removeIf(e -> e.getValue().isDone());
    }
  }

  private static Token await(CompletableFuture<Token> entry, Deadline deadline)
      throws UpstreamException {
    try {
      return entry.get(deadline.remaining().toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new UpstreamException(
          "waiting for a token: the deadline ran out", UpstreamException.Kind.DEADLINE);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UpstreamException("waiting for a token: interrupted");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UpstreamException failure) {
        throw failure;
      }
      throw new UpstreamException("token fetch failed: " + e.getCause().getClass().getSimpleName());
    }
  }
}
