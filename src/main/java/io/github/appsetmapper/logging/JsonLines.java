package io.github.appsetmapper.logging;

import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import java.io.ByteArrayOutputStream;

/**
 * {@code --log-format json}: Logback's JSON line, with the characters it leaves raw that a line
 * splitter breaks a line at escaped: U+2028 and U+2029 (Python's {@code splitlines}, JavaScript and
 * some log shippers end a line there) and the C1 controls (U+0085, NEL, among them). Valid JSON
 * either way; escaped, one event stays one line for every reader, as the text format's escape
 * ({@link LogText}) keeps its lines; the ASCII controls ({@code \r}, form feed, vertical tab ...)
 * Logback escapes already.
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
    return escaped(super.encode(event));
  }

  /**
   * {@code line} (UTF-8 JSON) with each U+0080..U+009F ({@code C2 80..9F}) and U+2028, U+2029
   * ({@code E2 80 A8}, {@code E2 80 A9}) written as a {@code \\uXXXX} escape. Such bytes start a
   * character in UTF-8 (never continue one), and JSON's structure is ASCII, so each is inside a
   * string, where the escape reads back as the same character.
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
      int c = width == 2 ? line[i + 1] & 0xff : 0x2000 | (line[i + 2] & 0xff) - 0x80;
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

  /** How many bytes the character to escape at {@code i} takes (2 or 3), or 0: none there. */
  private static int width(byte[] b, int i) {
    if (b[i] == (byte) 0xc2
        && i + 1 < b.length
        && (b[i + 1] & 0xff) >= 0x80
        && (b[i + 1] & 0xff) <= 0x9f) {
      return 2;
    }
    if (b[i] == (byte) 0xe2
        && i + 2 < b.length
        && b[i + 1] == (byte) 0x80
        && (b[i + 2] == (byte) 0xa8 || b[i + 2] == (byte) 0xa9)) {
      return 3;
    }
    return 0;
  }
}
