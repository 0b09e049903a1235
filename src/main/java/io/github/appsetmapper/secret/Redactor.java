package io.github.appsetmapper.secret;

import io.github.appsetmapper.upstream.PercentEncoding;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The last wall between a secret and an answer or a log line: every secret value read is
 * remembered, and every error message is scrubbed of all of them before it leaves the process. A
 * value is also remembered percent-encoded, as a URL carries it when a template puts it into a path
 * segment or a query value (a token with {@code /}, {@code +} or {@code =} would otherwise show in
 * a URL-bearing message).
 */
public final class Redactor {
  /** Shorter values would scrub ordinary words; a secret that short is not worth the name. */
  private static final int MIN_LENGTH = 4;

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private final Set<String> values = ConcurrentHashMap.newKeySet();

  public void remember(String value) {
    if (value != null && value.length() >= MIN_LENGTH) {
      values.add(value);
      values.add(PercentEncoding.encode(value, ""));
      values.add(PercentEncoding.encode(value, ":@"));
    }
  }

  public String redact(String text) {
    if (text == null || values.isEmpty()) {
      return text;
    }
    // Longest first, so that a secret holding another one is scrubbed whole.
    List<String> known = new ArrayList<>(values);
    known.sort(Comparator.comparingInt(String::length).reversed());
    String out = text;
    for (String value : known) {
      if (out.contains(value)) {
        out = out.replace(value, "***");
      }
    }
    return out;
  }
}
