package io.github.appsetmapper.expr;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.appsetmapper.text.Printable;

/**
 * Parsed constraints by their text, so that a constraint is parsed once rather than per row (a
 * literal one is also checked at load: {@link #problem}). Invalid texts are not kept.
 */
public final class SemverRanges {
  private static final Cache<String, SemverRange> PARSED =
      Caffeine.newBuilder().maximumSize(512).build();

  private SemverRanges() {}

  static SemverRange of(String text) throws SemverRange.Invalid {
    SemverRange cached = PARSED.getIfPresent(text);
    if (cached != null) {
      return cached;
    }
    SemverRange parsed = SemverRange.parse(text);
    PARSED.put(text, parsed);
    return parsed;
  }

  /** What is wrong with a constraint (null: nothing), for the load-time check of a literal. */
  public static String problem(String text) {
    try {
      of(text);
      return null;
    } catch (SemverRange.Invalid e) {
      return e.getMessage();
    }
  }

  static String shortened(String text) {
    return Printable.cut(text, 60);
  }
}
