package io.github.appsetmapper.config;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * One request option, declared once in {@link RequestOptionTable#ALL}: everything else (the parser,
 * the merge, the keys the schema and the reference are checked against) loops over that list.
 *
 * @param key its key in a {@code request} and under {@code defaults}
 * @param parser reads it from a request or {@code defaults} (null: not set), reporting problems
 * @param builtIn its value when neither the request nor {@code defaults} sets it (null: none)
 * @param merge how a request's own value meets {@code defaults}'
 * @param onLogin what a login request takes
 * @param tokenCalls whether the token calls made for a request's auth are made with it too
 * @param cacheKey whether calls that differ only in its call setting are cached apart (headers and
 *     auth always are: they are the call itself)
 * @param reference its row in docs/mapping-reference.md without the key, {@code meaning | default},
 *     as {@code "duration for the whole exchange | `defaults.timeout`, else `10s`"}
 * @param example a YAML value that sets it to other than its default (checked to reach the call)
 */
public record RequestOption<T>(
    String key,
    Function<YamlMap, T> parser,
    T builtIn,
    Merge merge,
    OnLogin onLogin,
    TokenCalls tokenCalls,
    CacheKey cacheKey,
    String reference,
    String example) {

  /** How a request's own value meets {@code defaults}'. */
  public enum Merge {
    /** The request's own value whole, else {@code defaults}', else the built-in default. */
    WHOLE,
    /** A map by name, case-insensitively: {@code defaults}' entries, the request's over them. */
    BY_NAME_CASE_INSENSITIVE;

    /** What "not set" is: null, or an empty map. */
    Object unset() {
      return this == WHOLE ? null : Map.of();
    }

    @SuppressWarnings("unchecked")
    Object apply(Object own, Object fromDefaults, Object builtIn) {
      if (this == BY_NAME_CASE_INSENSITIVE) {
        Map<String, Object> merged = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        merged.putAll((Map<? extends String, ?>) fromDefaults);
        merged.putAll((Map<? extends String, ?>) own);
        return merged;
      }
      return own != null ? own : fromDefaults != null ? fromDefaults : builtIn;
    }
  }

  /**
   * Whether the token calls made for a request's auth keep the option's call setting ({@code
   * upstream.call.CallSettings.forTokenCall}). An enum, not a boolean, so that it cannot be swapped
   * with {@link CacheKey} in a declaration.
   */
  public enum TokenCalls {
    KEEP_IT,
    WITHOUT_IT
  }

  /**
   * Whether calls that differ only in the option's call setting are cached apart ({@code
   * upstream.call.CallSettings.cacheKeyText}).
   */
  public enum CacheKey {
    PART_OF_IT,
    NOT_PART_OF_IT
  }

  /** What a login request (it fetches a token) takes of an option. */
  public enum OnLogin {
    /** As any request: its own, else {@code defaults}', else the built-in default. */
    AS_ANY_REQUEST,
    /** Only its own (auth: {@code defaults.auth} is what the login's token is for). */
    OWN_ONLY,
    /** Never (cache: a login's answer is never cached). */
    NEVER
  }
}
