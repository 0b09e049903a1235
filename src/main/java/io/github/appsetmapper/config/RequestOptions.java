package io.github.appsetmapper.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The settings a request and the mapping's {@code defaults} may both give: a request takes each one
 * it does not set from {@code defaults}, and a built-in default after that, all in {@link #over}. A
 * field is null (headers: empty) when it is not set here.
 *
 * <p>A new request option is one field here, its key in {@link #KEYS}, one line in {@link
 * RequestParser#options} and one in {@link #over} (docs/architecture.md has the whole path).
 */
public record RequestOptions(
    Map<String, Expr> headers,
    AuthSpec auth,
    Duration timeout,
    Expr failWhen,
    Integer retries,
    TlsSpec tls,
    CacheSpec cache) {

  /** The keys of the options, under {@code defaults} and in every {@code request}. */
  public static final List<String> KEYS =
      List.of("headers", "auth", "timeout", "failWhen", "cache", "retries", "tls");

  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  /** Retries of an idempotent request unless set: enough for a blip, short of hammering. */
  public static final int DEFAULT_RETRIES = 2;

  public static final int MAX_RETRIES = 10;

  /** Nothing set. */
  public static final RequestOptions NONE =
      new RequestOptions(Map.of(), null, null, null, null, null, null);

  /**
   * These options over {@code defaults}, then the built-in defaults: the one merge. Headers merge
   * by name (case-insensitively, this request's win); every other option is taken whole. The
   * result's {@code timeout} and {@code retries} are never null.
   */
  public RequestOptions over(RequestOptions defaults) {
    Map<String, Expr> merged = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    merged.putAll(defaults.headers());
    merged.putAll(headers);
    return new RequestOptions(
        merged,
        auth != null ? auth : defaults.auth(),
        first(timeout, defaults.timeout(), DEFAULT_TIMEOUT),
        failWhen != null ? failWhen : defaults.failWhen(),
        first(retries, defaults.retries(), DEFAULT_RETRIES),
        tls != null ? tls : defaults.tls(),
        cache != null ? cache : defaults.cache());
  }

  /**
   * As {@link #over} for a login request: it never takes {@code defaults.auth} (it fetches the
   * token; any auth of its own is for the login itself), and its answer is never cached.
   */
  public RequestOptions overForLogin(RequestOptions defaults) {
    RequestOptions merged =
        over(
            new RequestOptions(
                defaults.headers(),
                null,
                defaults.timeout(),
                defaults.failWhen(),
                defaults.retries(),
                defaults.tls(),
                null));
    return new RequestOptions(
        merged.headers(),
        merged.auth(),
        merged.timeout(),
        merged.failWhen(),
        merged.retries(),
        merged.tls(),
        null);
  }

  private static <T> T first(T own, T fromDefaults, T builtIn) {
    return own != null ? own : fromDefaults != null ? fromDefaults : builtIn;
  }
}
