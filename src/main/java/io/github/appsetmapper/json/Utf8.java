package io.github.appsetmapper.json;

import io.github.appsetmapper.text.Printable;
import java.nio.charset.StandardCharsets;

/**
 * Text turned into UTF-8 bytes (a URL, a hash, a slug, a request), never with half of a surrogate
 * pair in it: {@link String#getBytes} writes such a half as '?', so {@code /x/%3F} was called, a
 * '?' was hashed and a 200 answered from a value no one wrote. Half a pair is refused where text
 * becomes bytes, by the one check of every reader ({@link JsonCodec#halfSurrogate}).
 */
public final class Utf8 {
  private Utf8() {}

  /** Half of a surrogate pair where text was to become bytes: a bad argument, one line. */
  public static final class HalfCharacter extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    HalfCharacter(String message) {
      super(message, null);
    }
  }

  /**
   * Why {@code text} has no UTF-8 form ("holds half of a surrogate pair (\\ud83d alone), which is
   * not Unicode text", the half written as an escape), or null.
   */
  public static String problem(String text) {
    String problem = JsonCodec.halfSurrogate(text);
    return problem == null ? null : "holds" + problem.substring(JsonCodec.HALF_LEAD.length());
  }

  /** {@code text} as it is, or a {@link HalfCharacter} naming {@code what} ("#sha256's text"). */
  public static String checked(String text, String what) {
    String problem = problem(text);
    if (problem != null) {
      throw new HalfCharacter(what + " " + problem);
    }
    return text;
  }

  /** The UTF-8 bytes of {@code text}, or a {@link HalfCharacter} naming {@code what}. */
  public static byte[] bytes(String text, String what) {
    return checked(text, what).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * {@code text} with each half of a surrogate pair written as the six characters {@code \\ud83d}:
   * for text that is shown, not refused (an error message quoting a value, a log line), so that
   * what is printed says what was there instead of a '?'.
   */
  public static String shown(String text) {
    return Printable.halvesShown(text);
  }

  /**
   * JSON text with each half of a surrogate pair in its strings written as {@code \\\\ud83d}, which
   * reads back as the six characters {@link #shown} writes (JSON's own {@code \\ud83d} would read
   * back as the half again).
   */
  public static String shownInJson(String json) {
    return Printable.halvesShown(json, "\\\\u");
  }
}
