package io.github.appsetmapper.text;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * The one line for an answer that is not JSON where JSON was read: "answered 200 with text/html
 * (not JSON): '&lt;!DOCTYPE html&gt;&lt;html&gt;...'", its status, its {@code Content-Type} and its
 * first characters, each through the caller's excerpt (redacted whole, then cut) and escaped. A
 * sign-in page or a proxy's error page answered with a 2xx is then named as what it is. Here, with
 * no type of an answer, so that the engine's pages and the token readers of {@code upstream.auth}
 * (which the engine depends on) say it alike.
 */
public final class NotJsonText {
  /**
   * How much of the body is decoded for the excerpt: a secret that starts in the part shown is
   * whole in the part redacted, so no prefix of it is left; the rest is never looked at.
   */
  public static final int REDACTED_BYTES = 16 * 1024;

  private static final Pattern MEDIA_TYPE =
      Pattern.compile("[A-Za-z0-9.+-]{1,40}/[A-Za-z0-9.+-]{1,60}");

  private NotJsonText() {}

  /** "answered STATUS with TYPE (not JSON): 'FIRST CHARACTERS'". */
  public static String line(
      int status, String contentType, byte[] body, UnaryOperator<String> excerpt) {
    return head(status, contentType, bare -> Printable.escape(excerpt.apply(bare)))
        + ": '"
        + Printable.escape(excerpt.apply(firstChars(body)))
        + "'";
  }

  /**
   * "answered STATUS with TYPE (not JSON)", quoting nothing of the body: a login endpoint's answer
   * (form-encoded {@code access_token=...}, say) may hold a credential no redactor knows yet. A
   * Content-Type that is no plain media type is not shown either.
   */
  public static String unquoted(int status, String contentType) {
    return head(
        status, contentType, bare -> MEDIA_TYPE.matcher(bare).matches() ? bare : "a Content-Type");
  }

  private static String head(int status, String type, UnaryOperator<String> shown) {
    String bare = type == null ? "" : type.split(";", 2)[0].strip();
    String lower = bare.toLowerCase(Locale.ROOT);
    boolean claimsJson = lower.equals("application/json") || lower.endsWith("+json");
    return "answered "
        + status
        + " with "
        + (bare.isEmpty() ? "no Content-Type" : shown.apply(bare))
        + (claimsJson ? " that is not valid JSON" : " (not JSON)");
  }

  /**
   * The first 16 KiB as text, "..." after them when there is more: invalid UTF-8 as U+FFFD, a
   * character cut at the end left out (the decoder is not flushed). What an error may quote of an
   * answer, before the redactor.
   */
  public static String firstChars(byte[] body) {
    int length = Math.min(body.length, REDACTED_BYTES);
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE)
            .onUnmappableCharacter(CodingErrorAction.REPLACE);
    CharBuffer chars = CharBuffer.allocate(length);
    decoder.decode(ByteBuffer.wrap(body, 0, length), chars, false);
    chars.flip();
    return chars.toString() + (body.length > length ? "..." : "");
  }
}
