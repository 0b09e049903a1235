package io.github.appsetmapper.config;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Go-style durations as Kubernetes users write them: {@code 500ms}, {@code 10s}, {@code 1m30s}. */
public final class Durations {
  private static final Pattern WHOLE = Pattern.compile("(\\d+(ms|s|m|h))+");
  private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h)");

  private Durations() {}

  public static Duration parse(String text) {
    String trimmed = text.trim();
    if (!WHOLE.matcher(trimmed).matches()) {
      throw new IllegalArgumentException(
          "invalid duration '" + text + "'; write it like 500ms, 10s, 1m30s or 2h");
    }
    Duration total = Duration.ZERO;
    Matcher matcher = PART.matcher(trimmed);
    try {
      total = sum(matcher);
    } catch (ArithmeticException | NumberFormatException e) {
      throw new IllegalArgumentException("duration '" + text + "' is too long");
    }
    if (total.isZero()) {
      throw new IllegalArgumentException("duration '" + text + "' must be longer than zero");
    }
    return total;
  }

  private static Duration sum(Matcher matcher) {
    Duration total = Duration.ZERO;
    while (matcher.find()) {
      long amount = Long.parseLong(matcher.group(1));
      total =
          switch (matcher.group(2)) {
            case "ms" -> total.plusMillis(amount);
            case "s" -> total.plusSeconds(amount);
            case "m" -> total.plusMinutes(amount);
            default -> total.plusHours(amount);
          };
    }
    return total;
  }

  public static String format(Duration duration) {
    long millis = duration.toMillis();
    return millis % 1000 == 0 ? (millis / 1000) + "s" : millis + "ms";
  }
}
