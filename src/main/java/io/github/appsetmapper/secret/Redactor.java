package io.github.appsetmapper.secret;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The last wall between a secret and an answer or a log line: every secret value read is
 * remembered, and every error message is scrubbed of all of them before it leaves the process.
 */
public final class Redactor {
  /** Shorter values would scrub ordinary words; a secret that short is not worth the name. */
  private static final int MIN_LENGTH = 4;

  private final Set<String> values = ConcurrentHashMap.newKeySet();

  public void remember(String value) {
    if (value != null && value.length() >= MIN_LENGTH) {
      values.add(value);
    }
  }

  public String redact(String text) {
    if (text == null || values.isEmpty()) {
      return text;
    }
    String out = text;
    for (String value : values) {
      if (out.contains(value)) {
        out = out.replace(value, "***");
      }
    }
    return out;
  }
}
