package io.github.appsetmapper.json;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads an answer as one string ({@code format: text}): UTF-8, strictly (a malformed byte is
 * refused, never turned into U+FFFD), and at most {@value #MAX_CHARS} characters, the most any
 * string an expression builds may hold, so that what is read can be used whole.
 */
public final class TextBody {
  public static final int MAX_CHARS = 1_048_576;

  private TextBody() {}

  /** The text and the estimated heap it takes. */
  public static JsonCodec.Measured measure(byte[] body) throws JsonRefusal {
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(body))
              .toString();
    } catch (CharacterCodingException e) {
      throw new JsonRefusal(JsonRefusal.Kind.SYNTAX, "is not UTF-8 text", null);
    }
    if (text.length() > MAX_CHARS) {
      throw new JsonRefusal(
          JsonRefusal.Kind.LIMIT,
          "is text of " + text.length() + " characters, more than " + MAX_CHARS + " allowed",
          null);
    }
    return new JsonCodec.Measured(
        text, JsonCodec.VALUE_BYTES + JsonCodec.STRING_BYTES + 2L * text.length());
  }
}
