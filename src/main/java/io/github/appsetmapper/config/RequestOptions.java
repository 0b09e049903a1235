package io.github.appsetmapper.config;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The settings a request and the mapping's {@code defaults} may both give: a request takes each one
 * it does not set from {@code defaults}, and a built-in default after that, all in {@link #over}. A
 * value is null (headers: empty) when it is not set here.
 *
 * <p>The options are declared once, in {@link RequestOptionTable#ALL}; this is their values, and
 * everything here loops over that list (docs/architecture.md, "A request option").
 */
public final class RequestOptions {

  /** The keys of the options, under {@code defaults} and in every {@code request}. */
  public static final List<String> KEYS =
      RequestOptionTable.ALL.stream().map(RequestOption::key).toList();

  public static final Duration DEFAULT_TIMEOUT = RequestOptionTable.DEFAULT_TIMEOUT;

  /** Retries of an idempotent request unless set: enough for a blip, short of hammering. */
  public static final int DEFAULT_RETRIES = RequestOptionTable.DEFAULT_RETRIES;

  public static final int MAX_RETRIES = RequestOptionTable.MAX_RETRIES;

  /** Nothing set. */
  public static final RequestOptions NONE =
      new RequestOptions(
          RequestOptionTable.ALL.stream().map(option -> option.merge().unset()).toArray());

  /** By position in {@link RequestOptionTable#ALL}. */
  private final Object[] values;

  private RequestOptions(Object[] values) {
    this.values = values;
  }

  /** The options {@code map} (a request or {@code defaults}) sets, each read by its parser. */
  static RequestOptions parse(YamlMap map) {
    Object[] values = new Object[RequestOptionTable.ALL.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = RequestOptionTable.ALL.get(i).parser().apply(map);
    }
    return new RequestOptions(values);
  }

  /** The value of {@code option} here (null, or empty headers: not set). */
  @SuppressWarnings("unchecked")
  public <T> T get(RequestOption<T> option) {
    return (T) values[RequestOptionTable.indexOf(option)];
  }

  public Map<String, Expr> headers() {
    return get(RequestOptionTable.HEADERS);
  }

  public AuthSpec auth() {
    return get(RequestOptionTable.AUTH);
  }

  public Duration timeout() {
    return get(RequestOptionTable.TIMEOUT);
  }

  public Expr failWhen() {
    return get(RequestOptionTable.FAIL_WHEN);
  }

  public Integer retries() {
    return get(RequestOptionTable.RETRIES);
  }

  public TlsSpec tls() {
    return get(RequestOptionTable.TLS);
  }

  public CacheSpec cache() {
    return get(RequestOptionTable.CACHE);
  }

  /**
   * These options over {@code defaults}, then the built-in defaults: the one merge, each option by
   * its {@link RequestOption#merge} (headers by name, case-insensitively, this request's win; every
   * other option whole). The result's {@code timeout} and {@code retries} are never null.
   */
  public RequestOptions over(RequestOptions defaults) {
    return merge(defaults, false);
  }

  /**
   * As {@link #over} for a login request, each option by its {@link RequestOption#onLogin}: it
   * never takes {@code defaults.auth} (it fetches the token; any auth of its own is for the login
   * itself), and its answer is never cached.
   */
  public RequestOptions overForLogin(RequestOptions defaults) {
    return merge(defaults, true);
  }

  private RequestOptions merge(RequestOptions defaults, boolean login) {
    Object[] merged = new Object[values.length];
    for (int i = 0; i < merged.length; i++) {
      RequestOption<?> option = RequestOptionTable.ALL.get(i);
      RequestOption.OnLogin rule = login ? option.onLogin() : RequestOption.OnLogin.AS_ANY_REQUEST;
      Object unset = option.merge().unset();
      merged[i] =
          switch (rule) {
            case AS_ANY_REQUEST ->
                option.merge().apply(values[i], defaults.values[i], option.builtIn());
            case OWN_ONLY -> option.merge().apply(values[i], unset, option.builtIn());
            case NEVER -> unset;
          };
    }
    return new RequestOptions(merged);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof RequestOptions that && Arrays.equals(values, that.values);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(values);
  }

  @Override
  public String toString() {
    StringJoiner text = new StringJoiner(", ", "RequestOptions[", "]");
    for (int i = 0; i < values.length; i++) {
      text.add(RequestOptionTable.ALL.get(i).key() + "=" + values[i]);
    }
    return text.toString();
  }
}
