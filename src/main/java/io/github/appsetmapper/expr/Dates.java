package io.github.appsetmapper.expr;

import io.github.appsetmapper.text.Printable;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * RFC 3339 dates for the {@code #functions}: parsed strictly (a date-time with an offset, or a date
 * alone, read as midnight UTC), compared and formatted in UTC, and measured against the request's
 * time ({@link EvaluationBudget#requestTime()}), never the wall clock of the moment an expression
 * happens to run: one answer sees one "now".
 */
final class Dates {
  /** Longer text is no RFC 3339 date: refused before it is parsed. */
  static final int MAX_TEXT = 64;

  /** A format pattern longer than this is a mistake (and would only build longer text). */
  static final int MAX_PATTERN = 64;

  private Dates() {}

  /** The instant {@code text} names; an error naming the text when it is not RFC 3339. */
  static Instant parse(String text) {
    String t = text.strip();
    if (t.length() <= MAX_TEXT) {
      // RFC 3339 allows a lowercase t and z, and a space for the T ("NOTE" in section 5.6).
      String upper = t.toUpperCase(Locale.ROOT);
      try {
        if (upper.length() == 10) {
          return LocalDate.parse(upper).atStartOfDay(ZoneOffset.UTC).toInstant();
        }
        if (upper.length() > 10 && upper.charAt(10) == ' ') {
          upper = upper.substring(0, 10) + 'T' + upper.substring(11);
        }
        return OffsetDateTime.parse(upper, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
      } catch (DateTimeParseException e) {
        // Falls through to the one message below.
      }
    }
    throw new IllegalArgumentException(
        "'"
            + Printable.cut(t, 40)
            + "' is not an RFC 3339 date-time (2024-05-02T16:40:11Z, 2024-05-02T18:40:11+02:00, or"
            + " 2024-05-02)");
  }

  /** RFC 3339 in UTC, to the second (with the fraction when there is one). */
  static String text(Instant instant) {
    return DateTimeFormatter.ISO_INSTANT.format(instant);
  }

  static long secondsBetween(Instant from, Instant to) {
    return Duration.between(from, to).toSeconds();
  }

  static String format(Instant instant, String pattern) {
    if (pattern.length() > MAX_PATTERN) {
      throw new IllegalArgumentException(
          "a date pattern of more than " + MAX_PATTERN + " characters is not allowed");
    }
    DateTimeFormatter formatter;
    try {
      formatter = DateTimeFormatter.ofPattern(pattern, Locale.ROOT).withZone(ZoneOffset.UTC);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "invalid date pattern '" + pattern + "': " + e.getMessage());
    }
    return formatter.format(instant);
  }
}
