package io.github.appsetmapper.cli;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** Sizes as Kubernetes writes them: {@code 134217728}, {@code 128Mi}, {@code 1Gi}, {@code 64Ki}. */
final class ByteSizeConverter implements CommandLine.ITypeConverter<Long> {
  private static final Pattern SIZE = Pattern.compile("(\\d{1,15})\\s*(|Ki|Mi|Gi|KiB|MiB|GiB)");

  @Override
  public Long convert(String value) {
    Matcher matcher = SIZE.matcher(value.trim());
    if (!matcher.matches()) {
      throw new CommandLine.TypeConversionException(
          "invalid size '" + value + "'; write it like 134217728, 128Mi or 1Gi");
    }
    long amount = Long.parseLong(matcher.group(1));
    String unit = matcher.group(2).toLowerCase(Locale.ROOT);
    long factor =
        unit.startsWith("g")
            ? 1L << 30
            : unit.startsWith("m") ? 1L << 20 : unit.isEmpty() ? 1 : 1L << 10;
    try {
      return Math.multiplyExact(amount, factor);
    } catch (ArithmeticException e) {
      throw new CommandLine.TypeConversionException("size '" + value + "' is too large");
    }
  }
}
