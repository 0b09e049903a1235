package io.github.appsetmapper.engine;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Whether a rendered path segment stays one segment on every server: not empty, not {@code .} or
 * {@code ..}, and no {@code .} or {@code ..} step once percent-decoded (up to three times, as a
 * proxy and a framework may each decode), split at {@code /} and {@code \} (servers that decode
 * {@code %2F} or take a backslash for a slash) and with a {@code ;parameter} dropped (Tomcat's
 * {@code ..;}). Values from templates are encoded, so only literal text, or several holes meeting
 * in one segment, can make such a segment: the check runs on what was rendered, not on each hole.
 */
final class PathSegments {
  private static final int DECODINGS = 3;

  /** A slash either way, where a decoded segment would step between paths. */
  private static final java.util.regex.Pattern SEPARATORS =
      java.util.regex.Pattern.compile("[/\\\\]");

  private PathSegments() {}

  /** What is wrong with {@code segment} ("an empty path segment", ...), or null. */
  static String problem(String segment) {
    if (segment.isEmpty()) {
      return "an empty path segment";
    }
    if (isDot(segment)) {
      return "a '" + segment + "' path segment";
    }
    String decoded = segment;
    for (int i = 0; i < DECODINGS && decoded.indexOf('%') >= 0; i++) {
      decoded = decode(decoded);
    }
    if (isDot(decoded)) {
      return "a path segment that is '" + decoded + "' once percent-decoded";
    }
    if (decoded.indexOf('/') < 0 && decoded.indexOf('\\') < 0) {
      return dotStep(decoded); // one piece: no pattern made per call (String.split compiles one)
    }
    for (String piece : SEPARATORS.split(decoded, -1)) {
      String problem = dotStep(piece);
      if (problem != null) {
        return problem;
      }
    }
    return null;
  }

  /** A piece between slashes that is a dot step once its {@code ;parameters} are cut. */
  private static String dotStep(String piece) {
    int parameter = piece.indexOf(';');
    String step = parameter < 0 ? piece : piece.substring(0, parameter);
    return isDot(step) ? "a path segment with a '" + step + "' step once percent-decoded" : null;
  }

  private static boolean isDot(String text) {
    return text.equals(".") || text.equals("..");
  }

  /** %XX as its byte (either case), anything else as it is; the bytes read as UTF-8. */
  private static String decode(String text) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < bytes.length; i++) {
      int high = i + 2 < bytes.length && bytes[i] == '%' ? Character.digit(bytes[i + 1], 16) : -1;
      int low = high >= 0 ? Character.digit(bytes[i + 2], 16) : -1;
      if (low >= 0) {
        out.write(high << 4 | low);
        i += 2;
      } else {
        out.write(bytes[i]);
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
