package io.github.appsetmapper.logging;

import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.github.appsetmapper.text.Printable;
import java.io.ByteArrayOutputStream;

/**
 * {@code --log-format json}: Logback's JSON line, with every character the text log escapes ({@link
 * Printable#unsafe(char)}) that Logback leaves raw written as a {@code \\uXXXX} escape: the C1
 * controls (U+0085, NEL, among them), DEL, U+2028 and U+2029 (Python's {@code splitlines},
 * JavaScript and some log shippers end a line there) and the bidirectional controls
 * (U+202A..U+202E, U+2066..U+2069, which reverse what a reader sees). Valid JSON either way;
 * escaped, one event stays one line for every reader and reads as it was logged, as the text
 * format's escape ({@link LogText}) keeps its lines; the C0 controls ({@code \r}, form feed,
 * vertical tab ...) Logback escapes already.
 */
public final class JsonLines extends JsonEncoder {
  private static final byte[] HEX =
      "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  /** The encoder {@code --log-format json} writes with: the formatted message, no arguments. */
  public static JsonLines started(ch.qos.logback.core.Context context) {
    JsonLines encoder = new JsonLines();
    encoder.setContext(context);
    encoder.setWithArguments(false);
    encoder.setWithSequenceNumber(false);
    encoder.setWithContext(false);
    encoder.setWithNanoseconds(false);
    encoder.setWithMessage(false);
    encoder.setWithFormattedMessage(true);
    encoder.start();
    return encoder;
  }

  @Override
  public byte[] encode(ILoggingEvent event) {
    return escaped(super.encode(HalfPairsShown.of(event)));
  }

  /**
   * {@code line} (UTF-8 JSON) with each character {@link Printable#unsafe(char)} refuses written as
   * a {@code \\uXXXX} escape, C0 controls aside (Logback escapes those inside strings; the one left
   * raw is the line's own end). Every such character but DEL is two or three bytes in UTF-8, whose
   * first byte starts a character (never continues one), and JSON's structure is ASCII, so each is
   * inside a string, where the escape reads back as the same character.
   */
  static byte[] escaped(byte[] line) {
    int first = -1;
    for (int i = 0; i < line.length; i++) {
      if (width(line, i) > 0) {
        first = i;
        break;
      }
    }
    if (first < 0) {
      return line;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(line.length + 16);
    out.write(line, 0, first);
    for (int i = first; i < line.length; i++) {
      int width = width(line, i);
      if (width == 0) {
        out.write(line[i]);
        continue;
      }
      char c = decoded(line, i, width);
      out.write('\\');
      out.write('u');
      out.write(HEX[(c >> 12) & 0xf]);
      out.write(HEX[(c >> 8) & 0xf]);
      out.write(HEX[(c >> 4) & 0xf]);
      out.write(HEX[c & 0xf]);
      i += width - 1;
    }
    return out.toByteArray();
  }

  /**
   * How many bytes (1 to 3) the character to escape at {@code i} takes, or 0: none starts there.
   */
  private static int width(byte[] b, int i) {
    int lead = b[i] & 0xff;
    int width =
        lead == 0x7f ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : 0;
    if (width == 0 || i + width > b.length) {
      return 0;
    }
    for (int k = 1; k < width; k++) {
      if ((b[i + k] & 0xc0) != 0x80) {
        return 0; // not well formed: Logback writes none such, and none is decoded here
      }
    }
    return Printable.unsafe(decoded(b, i, width)) ? width : 0;
  }

  /** The character of {@code width} bytes at {@code i}. */
  private static char decoded(byte[] b, int i, int width) {
    return switch (width) {
      case 1 -> (char) b[i];
      case 2 -> (char) ((b[i] & 0x1f) << 6 | b[i + 1] & 0x3f);
      default -> (char) ((b[i] & 0x0f) << 12 | (b[i + 1] & 0x3f) << 6 | b[i + 2] & 0x3f);
    };
  }
}
