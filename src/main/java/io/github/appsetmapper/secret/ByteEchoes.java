package io.github.appsetmapper.secret;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a non-ASCII secret's bytes look like once an upstream has read them in another charset or
 * written them in a byte notation: the forms {@link NeedleIndex#forms} adds to the text's own.
 *
 * <p>The bytes are those of three charsets: UTF-8, Latin-1 (when every character fits: how a header
 * carries it) and windows-1252 (when every character fits and the bytes differ from Latin-1's:
 * {@code €} as 0x80). Their forms are:
 *
 * <ul>
 *   <li>the Latin-1 or windows-1252 bytes themselves ({@link #bytes}), found in the views that
 *       decode to bytes: base64 in either alphabet, padded or not, and percent-encoding ({@code
 *       %E4}, either case, mixed with plain characters);
 *   <li>the UTF-8 bytes read as Latin-1 or as windows-1252 ({@code PÃ¤ssw}: a servlet that reads a
 *       form body as ISO-8859-1), and the windows-1252 bytes read as Latin-1; found in every view,
 *       so percent-encoded, JSON-escaped ({@code \}{@code u00c3}), HTML-escaped or base64-encoded
 *       too;
 *   <li>hex of the Latin-1 or windows-1252 bytes, either case, bare or with {@code :}, a space or
 *       {@code -} between the bytes (UTF-8's is {@link NeedleIndex}'s);
 *   <li>each byte past ASCII as {@code \xe4} (Python's bytes repr) and {@code \xE4}, of each
 *       charset's bytes, and as C's octal {@code \344}; the text as Python's {@code ascii()} writes
 *       it ({@code \xe4}, {@code \}{@code u20ac}, {@code \U0001f600}).
 * </ul>
 *
 * <p>A secret has Latin-1 bytes or windows-1252 bytes that differ from them, never both (they
 * differ only for characters Latin-1 lacks): at most {@value #MOST} texts and one byte form per
 * secret, each as long as a few times the secret, and none at all for an ASCII secret, whose bytes
 * are its text in every one of these charsets.
 */
final class ByteEchoes {
  /** The most texts {@link #of} gives one value. */
  static final int MOST = 18;

  private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

  /**
   * Each byte as windows-1252 reads it, the five it leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D)
   * as the C1 control of their value, as browsers (WHATWG) and .NET read them.
   */
  private static final String WINDOWS_1252_CHARS = windows1252Chars();

  private ByteEchoes() {}

  /** The texts the bytes of {@code value} turn into; none for an ASCII value. */
  static List<String> of(String value) {
    if (ascii(value)) {
      return List.of();
    }
    byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
    byte[] single = singleByte(value);
    Set<String> out = new LinkedHashSet<>();
    // Mojibake: the UTF-8 bytes read by a Latin-1 or a windows-1252 reader.
    out.add(new String(utf8, StandardCharsets.ISO_8859_1));
    out.add(windows1252(utf8));
    if (single != null) {
      // windows-1252 bytes read as Latin-1 (the same text again for a Latin-1 secret).
      out.add(new String(single, StandardCharsets.ISO_8859_1));
      // Hex of them, bare or with ':', ' ' or '-' between the bytes, as NeedleIndex writes UTF-8's.
      for (String separator : List.of("", ":", " ", "-")) {
        String hex = HexFormat.ofDelimiter(separator).formatHex(single);
        out.add(hex);
        out.add(hex.toUpperCase(Locale.ROOT));
      }
    }
    for (byte[] bytes : single == null ? List.of(utf8) : List.of(utf8, single)) {
      out.add(escaped(bytes, false, false));
      out.add(escaped(bytes, false, true));
      out.add(escaped(bytes, true, false));
    }
    out.add(pythonAscii(value));
    out.remove(value);
    return List.copyOf(out);
  }

  /**
   * The byte forms of {@code value} that are no text's UTF-8: its Latin-1 bytes, or its
   * windows-1252 bytes where they differ; none for an ASCII value or one neither charset holds.
   */
  static List<byte[]> bytes(String value) {
    if (ascii(value)) {
      return List.of();
    }
    byte[] single = singleByte(value);
    return single == null ? List.of() : List.of(single);
  }

  private static boolean ascii(String value) {
    for (int i = 0; i < value.length(); i++) {
      if (value.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  /** Its Latin-1 bytes, else its windows-1252 bytes, else null (a character neither holds). */
  private static byte[] singleByte(String value) {
    byte[] latin1 = encoded(value, StandardCharsets.ISO_8859_1);
    return latin1 != null ? latin1 : encoded(value, WINDOWS_1252);
  }

  private static byte[] encoded(String value, Charset charset) {
    try {
      ByteBuffer buffer = charset.newEncoder().encode(CharBuffer.wrap(value));
      return Arrays.copyOfRange(buffer.array(), buffer.arrayOffset(), buffer.limit());
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  private static String windows1252(byte[] bytes) {
    StringBuilder out = new StringBuilder(bytes.length);
    for (byte b : bytes) {
      out.append(WINDOWS_1252_CHARS.charAt(b & 0xFF));
    }
    return out.toString();
  }

  private static String windows1252Chars() {
    StringBuilder out = new StringBuilder(256);
    for (int b = 0; b < 256; b++) {
      String read = new String(new byte[] {(byte) b}, WINDOWS_1252);
      out.append(read.length() == 1 && read.charAt(0) != '\uFFFD' ? read.charAt(0) : (char) b);
    }
    return out.toString();
  }

  /**
   * Each byte past printable ASCII as {@code \xhh} ({@code \xHH} with {@code upper}), or with
   * {@code octal} as {@code \ooo}; a backslash as {@code \\}, tab, line feed and carriage return as
   * {@code \t \n \r}, as Python's bytes repr and C's string literals write them.
   */
  static String escaped(byte[] bytes, boolean octal, boolean upper) {
    StringBuilder out = new StringBuilder(bytes.length * 2);
    for (byte b : bytes) {
      int c = b & 0xFF;
      if (c >= 0x20 && c < 0x7F) {
        out.append(c == '\\' ? "\\\\" : String.valueOf((char) c));
      } else if (c == '\t' || c == '\n' || c == '\r') {
        out.append(c == '\t' ? "\\t" : c == '\n' ? "\\n" : "\\r");
      } else if (octal) {
        out.append('\\').append(Integer.toOctalString(0x200 | c).substring(1));
      } else {
        String hex = HexFormat.of().toHexDigits((byte) c);
        out.append("\\x").append(upper ? hex.toUpperCase(Locale.ROOT) : hex);
      }
    }
    return out.toString();
  }

  /**
   * As Python's {@code ascii()} writes the text: {@code \xe4}, {@code \}{@code u20ac}, {@code
   * \U0001f600}.
   */
  static String pythonAscii(String value) {
    StringBuilder out = new StringBuilder(value.length() * 2);
    value
        .codePoints()
        .forEach(
            c -> {
              if (c < 0x80) {
                out.append(escaped(new byte[] {(byte) c}, false, false));
              } else if (c <= 0xFF) {
                out.append(String.format("\\x%02x", c));
              } else if (c <= 0xFFFF) {
                out.append(String.format("\\u%04x", c));
              } else {
                out.append(String.format("\\U%08x", c));
              }
            });
    return out.toString();
  }
}
