package io.github.appsetmapper.cli;

import io.github.appsetmapper.config.Durations;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;

/**
 * The numeric and address flags of a command, checked before anything starts: the first one out of
 * its range is one line naming the flag, its range and the value given (exit 2), never a stack
 * trace from deep inside a library or a server that starts anyway with a setting that cannot work.
 */
final class FlagChecks {
  static final long KI = 1024;
  static final long MI = 1024 * KI;
  static final long GI = 1024 * MI;
  static final long TI = 1024 * GI;

  private String problem;

  /** {@code value} of {@code flag} must be within {@code min..max}. */
  FlagChecks range(String flag, long value, long min, long max) {
    if (problem == null && (value < min || value > max)) {
      problem = flag + " must be from " + min + " to " + max + ", not " + value;
    }
    return this;
  }

  /**
   * A size flag ({@code 128Mi}): as {@link #range}, the bounds written as sizes; null (an option
   * not given, whose default is applied later) passes.
   */
  FlagChecks size(String flag, Long value, long min, long max) {
    if (problem == null && value != null && (value < min || value > max)) {
      problem = flag + " must be from " + size(min) + " to " + size(max) + ", not " + size(value);
    }
    return this;
  }

  /** A duration flag: within {@code min..max}; null (not given, defaulted later) passes. */
  FlagChecks duration(String flag, Duration value, Duration min, Duration max) {
    if (problem == null
        && value != null
        && (value.compareTo(min) < 0 || value.compareTo(max) > 0)) {
      problem =
          flag + " must be from " + format(min) + " to " + format(max) + ", not " + format(value);
    }
    return this;
  }

  /**
   * An address to listen on: an IP address, or a name that resolves. {@code 256.1.1.1} is neither
   * (a listener would fail later with a stack trace).
   */
  FlagChecks address(String flag, String host) {
    if (problem == null) {
      try {
        InetAddress.getByName(host);
      } catch (UnknownHostException | SecurityException e) {
        problem = flag + " '" + host + "' is neither an IP address nor a name that resolves";
      }
      if (problem == null && host.isBlank()) {
        problem = flag + " is empty";
      }
    }
    return this;
  }

  /** The first flag out of its range, as one line; null when all are in range. */
  String problem() {
    return problem;
  }

  private static String format(Duration duration) {
    // Durations.format counts milliseconds, which a duration of centuries overflows.
    return duration.getSeconds() > 1_000_000_000L
        ? duration.getSeconds() + "s"
        : Durations.format(duration);
  }

  private static String size(long bytes) {
    if (bytes > 0 && bytes % GI == 0) {
      return bytes / GI + "Gi";
    }
    if (bytes > 0 && bytes % MI == 0) {
      return bytes / MI + "Mi";
    }
    if (bytes > 0 && bytes % KI == 0) {
      return bytes / KI + "Ki";
    }
    return Long.toString(bytes);
  }
}
