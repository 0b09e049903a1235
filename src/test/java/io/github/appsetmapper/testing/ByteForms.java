package io.github.appsetmapper.testing;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A non-ASCII secret's bytes as upstreams echo them once read in another charset or written in a
 * byte notation: its UTF-8, Latin-1 and windows-1252 bytes in hex, base64, percent-encoding,
 * Python's {@code \xe4} and C's {@code \344} escapes, and its UTF-8 read as Latin-1 or windows-1252
 * (mojibake) as it is and escaped again. The leak criterion is {@link SecretForms}' ({@link
 * SecretForms#PIECE} characters), over these forms too.
 */
public final class ByteForms {
  private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

  /** Latin-1 throughout: how a header carries it, and what the outside tester sent. */
  public static final String LATIN1 = "Pässwörd-Straße-Köln-92aZ";

  /** windows-1252 only ('€' and 'Œ' are not Latin-1): 0x80 and 0x8C where Latin-1 has none. */
  public static final String WINDOWS = "Kosten-€42-Œuvre-Pässe-x9";

  private ByteForms() {}

  /** Each named byte echo of {@code secret}, as the echo would read; user is a Basic user name. */
  public static Map<String, String> echoes(String user, String secret) {
    Map<String, String> out = new LinkedHashMap<>();
    Map<String, byte[]> charsets = charsets(secret);
    charsets.forEach(
        (name, bytes) -> {
          String hex = HexFormat.of().formatHex(bytes);
          out.put(name + " hex, lower case", hex);
          out.put(name + " hex, upper case", hex.toUpperCase(Locale.ROOT));
          for (String separator : new String[] {":", " ", "-"}) {
            String spaced = HexFormat.ofDelimiter(separator).formatHex(bytes);
            out.put(name + " hex, '" + separator + "' between", spaced);
            out.put(
                name + " hex, '" + separator + "' between, upper case",
                spaced.toUpperCase(Locale.ROOT));
          }
          out.put(
              name + " \\x escapes (Python bytes repr)", "b'" + escaped(bytes, "\\x%02x") + "'");
          out.put(name + " \\X escapes, upper case", escaped(bytes, "\\x%02X"));
          out.put(name + " C octal escapes", "\"" + octal(bytes) + "\"");
          out.put(name + " every byte percent-encoded, lower case", percent(bytes));
          for (int align = 0; align < 3; align++) {
            byte[] alone = concat("x".repeat(align).getBytes(StandardCharsets.US_ASCII), bytes);
            out.put(name + " base64 after " + align, Base64.getEncoder().encodeToString(alone));
            out.put(
                name + " base64url unpadded after " + align,
                Base64.getUrlEncoder().withoutPadding().encodeToString(alone));
          }
          byte[] basic = concat((user + ":").getBytes(StandardCharsets.US_ASCII), bytes);
          out.put(
              name + " Basic user:password", "Basic " + Base64.getEncoder().encodeToString(basic));
        });
    byte[] utf8 = secret.getBytes(StandardCharsets.UTF_8);
    for (Map.Entry<String, String> mojibake : mojibake(utf8).entrySet()) {
      String text = mojibake.getValue();
      String name = "UTF-8 read as " + mojibake.getKey();
      out.put(name, text);
      out.put(name + ", JSON \\u escapes", SecretForms.jsonEscaped(text));
      out.put(name + ", percent-encoded", SecretForms.percent(text, "", true));
      out.put(
          name + ", base64 of its UTF-8",
          Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8)));
      out.put(name + ", HTML decimal references", htmlDecimal(text));
    }
    byte[] windows = encoded(secret, WINDOWS_1252);
    if (windows != null) {
      out.put("windows-1252 read as Latin-1", new String(windows, StandardCharsets.ISO_8859_1));
    }
    return out;
  }

  /**
   * The pieces of {@code secret}'s byte forms that must never show: every {@link
   * SecretForms#PIECE}-character run of its text forms here (mojibake, hex, escapes) and of the
   * part of each base64 form of its single-byte charsets' bytes that only those bytes decide.
   */
  public static Set<String> pieces(String secret) {
    Set<String> forms = new LinkedHashSet<>();
    Map<String, byte[]> charsets = charsets(secret);
    for (byte[] bytes : charsets.values()) {
      String hex = HexFormat.of().formatHex(bytes);
      forms.add(hex);
      forms.add(hex.toUpperCase(Locale.ROOT));
      forms.add(escaped(bytes, "\\x%02x"));
      forms.add(escaped(bytes, "\\x%02X"));
      forms.add(octal(bytes));
      forms.add(percent(bytes));
      for (int align = 0; align < 3; align++) {
        byte[] padded = concat(new byte[align], bytes);
        String encoded = Base64.getEncoder().withoutPadding().encodeToString(padded);
        String core = encoded.substring((8 * align + 5) / 6, 8 * (align + bytes.length) / 6);
        forms.add(core);
        forms.add(core.replace('+', '-').replace('/', '_'));
      }
    }
    for (String text : mojibake(secret.getBytes(StandardCharsets.UTF_8)).values()) {
      forms.add(text);
      forms.add(SecretForms.jsonEscaped(text));
    }
    Set<String> pieces = new LinkedHashSet<>(SecretForms.pieces(secret));
    for (String form : forms) {
      for (int i = 0; i + SecretForms.PIECE <= form.length(); i++) {
        pieces.add(form.substring(i, i + SecretForms.PIECE));
      }
    }
    return pieces;
  }

  /** The pieces of {@code secret} (its byte forms and its wire forms) found in {@code text}. */
  public static List<String> leaks(String text, String secret) {
    List<String> found = new ArrayList<>();
    for (String piece : pieces(secret)) {
      if (text.contains(piece)) {
        found.add(piece);
      }
    }
    return found;
  }

  /** Its bytes in UTF-8, Latin-1 and windows-1252, each charset that holds it. */
  private static Map<String, byte[]> charsets(String secret) {
    Map<String, byte[]> out = new LinkedHashMap<>();
    out.put("UTF-8", secret.getBytes(StandardCharsets.UTF_8));
    byte[] latin1 = encoded(secret, StandardCharsets.ISO_8859_1);
    if (latin1 != null) {
      out.put("Latin-1", latin1);
    }
    byte[] windows = encoded(secret, WINDOWS_1252);
    if (windows != null && latin1 == null) {
      out.put("windows-1252", windows);
    }
    return out;
  }

  /**
   * The UTF-8 bytes read as Latin-1 and as windows-1252 (Java's reader: no undefined byte here).
   */
  private static Map<String, String> mojibake(byte[] utf8) {
    Map<String, String> out = new LinkedHashMap<>();
    out.put("Latin-1", new String(utf8, StandardCharsets.ISO_8859_1));
    out.put("windows-1252", new String(utf8, WINDOWS_1252));
    return out;
  }

  private static byte[] encoded(String value, Charset charset) {
    try {
      ByteBuffer buffer = charset.newEncoder().encode(CharBuffer.wrap(value));
      byte[] out = new byte[buffer.remaining()];
      buffer.get(out);
      return out;
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  private static String escaped(byte[] bytes, String format) {
    StringBuilder out = new StringBuilder();
    for (byte b : bytes) {
      int c = b & 0xFF;
      out.append(c >= 0x20 && c < 0x7F && c != '\\' ? String.valueOf((char) c) : format(format, c));
    }
    return out.toString();
  }

  private static String format(String format, int c) {
    return c == '\\' ? "\\\\" : String.format(format, c);
  }

  private static String octal(byte[] bytes) {
    StringBuilder out = new StringBuilder();
    for (byte b : bytes) {
      int c = b & 0xFF;
      out.append(
          c >= 0x20 && c < 0x7F && c != '\\' ? String.valueOf((char) c) : format("\\%03o", c));
    }
    return out.toString();
  }

  private static String percent(byte[] bytes) {
    StringBuilder out = new StringBuilder();
    for (byte b : bytes) {
      out.append(String.format("%%%02x", b & 0xFF));
    }
    return out.toString();
  }

  private static String htmlDecimal(String text) {
    StringBuilder out = new StringBuilder();
    text.codePoints().forEach(c -> out.append(c < 0x80 ? Character.toString(c) : "&#" + c + ";"));
    return out.toString();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
