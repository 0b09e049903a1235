package io.github.appsetmapper.cli;

import io.github.appsetmapper.config.Durations;
import java.time.Duration;
import picocli.CommandLine;

/** Command-line durations written as in mappings: {@code 500ms}, {@code 5s}, {@code 1m}. */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
  @Override
  public Duration convert(String value) {
    try {
      return Durations.parse(value);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.TypeConversionException(e.getMessage());
    }
  }
}
