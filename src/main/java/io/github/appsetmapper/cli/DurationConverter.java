package io.github.appsetmapper.cli;

import io.github.appsetmapper.config.Durations;
import java.time.Duration;
import picocli.CommandLine;

/**
 * Command-line durations written as in mappings: {@code 500ms}, {@code 5s}, {@code 1m}. Zero
 * ({@code 0s}) is read too: each flag's range ({@code FlagChecks}) says whether it may be zero
 * ({@code --drain-delay} may), in one line naming the flag and its range.
 */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
  @Override
  public Duration convert(String value) {
    if (value.trim().matches("(0+(ms|s|m|h))+")) {
      return Duration.ZERO;
    }
    try {
      return Durations.parse(value);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.TypeConversionException(e.getMessage());
    }
  }
}
