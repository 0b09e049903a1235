package io.github.appsetmapper.config;

import io.github.appsetmapper.config.RequestOption.CacheKey;
import io.github.appsetmapper.config.RequestOption.Merge;
import io.github.appsetmapper.config.RequestOption.OnLogin;
import io.github.appsetmapper.config.RequestOption.TokenCalls;
import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every request option, declared once (docs/architecture.md, "A request option"). The parser, the
 * merge, {@link RequestOptions#KEYS} and the checks against the schema and the reference all loop
 * over {@link #ALL}; {@code architecture/OptionPlumbingTest} fails at once for a declaration whose
 * value reaches no call, whose reference row is missing, or whose token-call or cache-key flag is
 * not what the call does; {@code architecture/OptionEffectsTest} fails for one that nothing reads
 * over HTTP, or that has no effect check there.
 */
public final class RequestOptionTable {
  private RequestOptionTable() {}

  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  /** Retries of an idempotent request unless set: enough for a blip, short of hammering. */
  public static final int DEFAULT_RETRIES = 2;

  public static final int MAX_RETRIES = 10;

  public static final RequestOption<Map<String, Expr>> HEADERS =
      new RequestOption<>(
          "headers",
          RequestParser::headers,
          null,
          Merge.BY_NAME_CASE_INSENSITIVE,
          OnLogin.AS_ANY_REQUEST,
          TokenCalls.WITHOUT_IT,
          CacheKey.NOT_PART_OF_IT,
          "map of headers, values are templates; merged over `defaults.headers` (names"
              + " case-insensitive) | none",
          "{X-Toy: t}");

  public static final RequestOption<AuthSpec> AUTH =
      new RequestOption<>(
          "auth",
          RequestParser::auth,
          null,
          Merge.WHOLE,
          OnLogin.OWN_ONLY,
          TokenCalls.WITHOUT_IT,
          CacheKey.NOT_PART_OF_IT,
          "upstream authentication (below) | `defaults.auth`",
          "{bearer: {secret: t}}");

  public static final RequestOption<Duration> TIMEOUT =
      new RequestOption<>(
          "timeout",
          map -> map.duration("timeout", null),
          DEFAULT_TIMEOUT,
          Merge.WHOLE,
          OnLogin.AS_ANY_REQUEST,
          TokenCalls.WITHOUT_IT,
          CacheKey.NOT_PART_OF_IT,
          "duration (`500ms`, `10s`, `1m30s`; more than zero) for the whole exchange, including a"
              + " slowly sent body; a timeout is a 504 | `defaults.timeout`, else `10s`",
          "7s");

  public static final RequestOption<Expr> FAIL_WHEN =
      new RequestOption<>(
          "failWhen",
          map -> map.expr("failWhen"),
          null,
          Merge.WHOLE,
          OnLogin.AS_ANY_REQUEST,
          TokenCalls.WITHOUT_IT,
          CacheKey.NOT_PART_OF_IT,
          "SpEL over `response`: a 2xx answer for which it is true is an upstream error (APIs that"
              + " answer 200 with an error, such as GraphQL's `errors`) | `defaults.failWhen`",
          "response.status == 299");

  public static final RequestOption<Integer> RETRIES =
      new RequestOption<>(
          "retries",
          RequestParser::retries,
          DEFAULT_RETRIES,
          Merge.WHOLE,
          OnLogin.AS_ANY_REQUEST,
          TokenCalls.WITHOUT_IT,
          CacheKey.NOT_PART_OF_IT,
          "how often an idempotent request (`GET`, `HEAD`, `OPTIONS`, `PUT`, `DELETE`) is tried"
              + " again after a connect error or a 429, 502, 503 or 504 answer (0 to 10). `POST`"
              + " and `PATCH` are never retried (setting `retries` on them is a load error) |"
              + " `defaults.retries`, else `2`",
          "7");

  public static final RequestOption<TlsSpec> TLS =
      new RequestOption<>(
          "tls",
          map -> RequestParser.tls(map.map("tls")),
          null,
          Merge.WHOLE,
          OnLogin.AS_ANY_REQUEST,
          TokenCalls.KEEP_IT,
          CacheKey.PART_OF_IT,
          "TLS settings (below) | `defaults.tls`, else the JVM's trust store",
          "{insecureSkipVerify: true}");

  public static final RequestOption<CacheSpec> CACHE =
      new RequestOption<>(
          "cache",
          map -> RequestParser.cache(map.map("cache")),
          null,
          Merge.WHOLE,
          OnLogin.NEVER,
          TokenCalls.WITHOUT_IT,
          CacheKey.NOT_PART_OF_IT,
          "`{ttl, staleIfError}`: keep this request's successful answers in memory for `ttl`, and"
              + " let the last good one stand in for a failing upstream for `staleIfError` after"
              + " that. See [Caching, coalescing and guards](#caching-coalescing-and-guards) |"
              + " `defaults.cache`, else not cached",
          "{ttl: 7s}");

  /** Every option, in the order they are read (and their problems reported). */
  public static final List<RequestOption<?>> ALL =
      List.of(HEADERS, AUTH, TIMEOUT, FAIL_WHEN, RETRIES, TLS, CACHE);

  private static final Map<RequestOption<?>, Integer> INDEX = index();

  /** Where {@code option} stands in {@link #ALL}. */
  static int indexOf(RequestOption<?> option) {
    Integer at = INDEX.get(option);
    if (at == null) {
      throw new IllegalArgumentException(option.key() + " is not in RequestOptionTable.ALL");
    }
    return at;
  }

  private static Map<RequestOption<?>, Integer> index() {
    Map<RequestOption<?>, Integer> index = new IdentityHashMap<>();
    for (int i = 0; i < ALL.size(); i++) {
      index.put(ALL.get(i), i);
    }
    return index;
  }
}
