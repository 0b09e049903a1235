package io.github.appsetmapper.testing;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The forms a secret takes on the wire, as upstreams echo them, and the leak criterion the tests
 * hold every answer, explain report and log line to: no run of {@link #PIECE} characters of any
 * form of the secret may appear. Eight characters: shorter runs of a random token occur by chance
 * in ordinary text, and a leaked run of eight gives away at most eight characters of a secret whose
 * length the criterion does not bound (base64 and percent-encoding spread a character over up to 4
 * or 3 characters, so a piece of an encoded form gives away less).
 */
public final class SecretForms {
  public static final int PIECE = 8;

  /** Full of the characters that encoders treat differently, and not ASCII only. */
  public static final String NASTY = "Tk~!*'();:@&=+$,/?#[]% \"\\é€😀-end-9f3a";

  private SecretForms() {}

  /** Each named encoding of {@code secret} an upstream might echo, as the echo would read. */
  public static Map<String, String> echoes(String user, String secret) {
    Map<String, String> out = new LinkedHashMap<>();
    out.put("raw", secret);
    out.put("RFC 3986, upper-case hex", percent(secret, "", true));
    out.put("RFC 3986, lower-case hex", percent(secret, "", false));
    out.put("every byte encoded, '~' as %7E", percent(secret, null, true));
    out.put("form encoding, '+' for a space", URLEncoder.encode(secret, StandardCharsets.UTF_8));
    out.put("encodeURIComponent", percent(secret, "!*'()", true));
    out.put("path-style, '/' ':' '@' kept", percent(secret, "/:@", false));
    out.put("encoded twice", percent(percent(secret, "", true), "", true));
    out.put("JSON, '\\/' and \\u escapes", jsonEscaped(secret));
    // Nested encodings, as an upstream builds them: JSON holding JSON, put in a link.
    String jsonInJson = jsonEscaped("{\"k\":\"" + jsonEscaped(secret) + "\"}");
    out.put("JSON inside JSON", jsonInJson);
    out.put("JSON inside JSON, percent-encoded in a link", percent(jsonInJson, "", true));
    out.put("encoded three times", percent(percent(percent(secret, "", true), "", true), "", true));
    // Cut short, as an error message quotes a long token: a run of eight gives it away.
    int points = secret.codePointCount(0, secret.length());
    out.put(
        "cut short: its first three quarters",
        secret.substring(0, secret.offsetByCodePoints(0, points * 3 / 4)));
    out.put(
        "cut short: all but its first character",
        secret.substring(secret.offsetByCodePoints(0, 1)));
    out.put("HTML, named references", html(secret, false, false));
    out.put("HTML, decimal references", html(secret, true, false));
    out.put("HTML, hex references", html(secret, true, true));
    out.put("HTML, escaped twice", html(html(secret, false, false), false, false));
    out.put("HTML, as htmlentities writes it", htmlEntities(secret));
    out.put("HTML, zero-padded hex references", htmlPadded(secret));
    // The names upper-cased only: &EURO; where HTML's name is &euro; (a hand-made error page).
    out.put("HTML, names in upper case", upperNames(htmlEntities(secret)));
    // In another Unicode form: decomposed (e and U+0301 for é, as macOS writes file names), and
    // in fullwidth letters (NFKC makes both the secret's text again).
    out.put("Unicode, decomposed (NFD)", Normalizer.normalize(secret, Normalizer.Form.NFD));
    out.put("Unicode, fullwidth letters", fullwidth(secret));
    out.put("hex of its bytes, lower case", hex(secret));
    out.put("hex of its bytes, upper case", hex(secret).toUpperCase(Locale.ROOT));
    // As a dump writes its bytes (openssl, xxd, a MAC address's style), and folded whole as
    // Python's casefold does (ß as ss), and base64 of its decomposed form (a decomposing client).
    for (String separator : new String[] {":", " ", "-"}) {
      out.put(
          "hex of its bytes, '" + separator + "' between",
          java.util.HexFormat.ofDelimiter(separator)
              .formatHex(secret.getBytes(StandardCharsets.UTF_8)));
    }
    out.put(
        "case-folded (upper then lower)", secret.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT));
    out.put(
        "base64 of its decomposed form (NFD)",
        Base64.getEncoder()
            .encodeToString(
                Normalizer.normalize(secret, Normalizer.Form.NFD)
                    .getBytes(StandardCharsets.UTF_8)));
    // Sent as Latin-1 in a header, read back as UTF-8 or written by a Latin-1 page.
    out.put("sent as Latin-1, read as UTF-8 (U+FFFD)", latin1(secret, "\uFFFD", false));
    out.put("sent as Latin-1, read as UTF-8 ('?')", latin1(secret, "?", false));
    out.put("sent as Latin-1, percent-encoded (escape())", latin1(secret, null, true));
    // Percent-encoding past what encoders write by default: a Latin-1 page's bytes in lower and
    // mixed case, and twice (%25E4); hex digits in mixed case.
    out.put(
        "sent as Latin-1, percent-encoded, lower case",
        java.util.regex.Pattern.compile("%[0-9A-F]{2}")
            .matcher(latin1(secret, null, true))
            .replaceAll(m -> m.group().toLowerCase(Locale.ROOT)));
    out.put("sent as Latin-1, percent-encoded, mixed case", mixedCase(latin1(secret, null, true)));
    out.put(
        "sent as Latin-1, percent-encoded twice", latin1(secret, null, true).replace("%", "%25"));
    out.put("RFC 3986, mixed-case hex", mixedCase(percent(secret, "", true)));
    // Character references of every kind in one text, and JSON escapes mixed with plain ones.
    out.put("HTML, decimal, hex and named references mixed", htmlMixed(secret));
    out.put("JSON, \\u escapes mixed with plain characters", jsonMixed(secret));
    // Quoted-printable (RFC 2045), as mail and some APIs write a body: a soft line break inside.
    out.put("quoted-printable, soft line break (CRLF)", quotedPrintable(secret, true, "=\r\n"));
    out.put(
        "quoted-printable, lower-case hex, soft line break (LF)",
        quotedPrintable(secret, false, "=\n"));
    // Split rather than encoded: folded at a line break (an error body wrapped at 76 columns),
    // base64 folded as MIME writes it, an invisible character between its characters.
    out.put("folded with CRLF a third of the way in", fold(secret, "\r\n"));
    out.put("folded with LF a third of the way in", fold(secret, "\n"));
    out.put("a zero-width space after every third character", spread(secret, "\u200B", 3));
    out.put("a soft hyphen after every second character", spread(secret, "\u00AD", 2));
    out.put("a byte order mark after every fourth character", spread(secret, "\uFEFF", 4));
    // MIME folds base64 at 76 columns (57 bytes): the fold a third of the way into the secret.
    byte[] utf8 = secret.getBytes(StandardCharsets.UTF_8);
    byte[] mime =
        ("x".repeat(Math.max(0, 57 - utf8.length / 3)) + secret).getBytes(StandardCharsets.UTF_8);
    out.put("base64 folded at 76 columns (MIME)", Base64.getMimeEncoder().encodeToString(mime));
    // Rewritten by a fixed rule: reversed, ROT13, each character doubled (docs/security.md).
    out.put("reversed", reversed(secret));
    out.put("ROT13", rot13(secret));
    out.put("each character doubled", doubled(secret));
    for (int align = 0; align < 3; align++) {
      String before = "x".repeat(align);
      byte[] alone = (before + secret).getBytes(StandardCharsets.UTF_8);
      byte[] basic = (before + user + ":" + secret).getBytes(StandardCharsets.UTF_8);
      out.put("base64 after " + align + " byte(s)", Base64.getEncoder().encodeToString(alone));
      out.put(
          "base64url unpadded after " + align + " byte(s)",
          Base64.getUrlEncoder().withoutPadding().encodeToString(alone));
      out.put(
          "Basic user:password after " + align + " byte(s)",
          "Basic " + Base64.getEncoder().encodeToString(basic));
      out.put(
          "base64url user:password after " + align + " byte(s)",
          Base64.getUrlEncoder().withoutPadding().encodeToString(basic));
    }
    return out;
  }

  /**
   * The pieces of {@code secret} that must never show: every {@link #PIECE}-character run of the
   * secret itself, of its percent-encoded and JSON-escaped forms, and of the part of each base64
   * form that only the secret's bytes decide (the characters that also encode neighbouring bytes
   * are left out: they are not the secret's).
   */
  public static Set<String> pieces(String secret) {
    Set<String> forms = new LinkedHashSet<>();
    forms.add(secret);
    forms.add(percent(secret, "", true));
    forms.add(percent(secret, "", false));
    forms.add(URLEncoder.encode(secret, StandardCharsets.UTF_8));
    forms.add(jsonEscaped(secret));
    forms.add(html(secret, false, false));
    forms.add(html(secret, true, false));
    forms.add(html(secret, true, true));
    // Its other Unicode forms give it away as well as its own (a reader sees the same text).
    forms.add(Normalizer.normalize(secret, Normalizer.Form.NFD));
    forms.add(fullwidth(secret));
    forms.add(hex(secret));
    forms.add(hex(secret).toUpperCase(Locale.ROOT));
    forms.add(latin1(secret, "\uFFFD", false));
    forms.add(latin1(secret, "?", false));
    forms.add(latin1(secret, null, true));
    forms.add(quotedPrintable(secret, true, ""));
    forms.add(reversed(secret));
    forms.add(rot13(secret));
    forms.add(doubled(secret));
    byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
    for (int align = 0; align < 3; align++) {
      byte[] padded = new byte[align + bytes.length];
      System.arraycopy(bytes, 0, padded, align, bytes.length);
      String encoded = Base64.getEncoder().withoutPadding().encodeToString(padded);
      int first = (8 * align + 5) / 6;
      int end = 8 * (align + bytes.length) / 6;
      String core = encoded.substring(first, end);
      forms.add(core);
      forms.add(core.replace('+', '-').replace('/', '_'));
    }
    Set<String> pieces = new LinkedHashSet<>();
    for (String form : forms) {
      for (int i = 0; i + PIECE <= form.length(); i++) {
        pieces.add(form.substring(i, i + PIECE));
      }
    }
    return pieces;
  }

  /**
   * Each character past ASCII as {@code mark}, or with {@code percent} as {@code %XX} of its
   * Latin-1 byte ('?' past Latin-1, which no Latin-1 header carries).
   */
  public static String latin1(String value, String mark, boolean percent) {
    StringBuilder out = new StringBuilder();
    value
        .codePoints()
        .forEach(
            c -> {
              if (c < 0x80) {
                out.appendCodePoint(c);
              } else if (percent) {
                out.append(c <= 0xFF ? String.format("%%%02X", c) : "?");
              } else {
                out.append(mark);
              }
            });
    return out.toString();
  }

  /** Its UTF-8 bytes in lower-case hex. */
  public static String hex(String value) {
    return java.util.HexFormat.of().formatHex(value.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The pieces of {@code secret} found in {@code text}, or in it without its line breaks and
   * invisible characters (a piece split by a fold or a zero-width space is still read): empty, no
   * leak.
   */
  public static List<String> leaks(String text, String secret) {
    List<String> found = new ArrayList<>();
    String joined = text.replaceAll("[\\r\\n\\u00AD\\u200B-\\u200D\\u2060\\uFEFF]", "");
    for (String piece : pieces(secret)) {
      if (text.contains(piece) || joined.contains(piece)) {
        found.add(piece);
      }
    }
    return found;
  }

  /**
   * Percent-encoding of every UTF-8 byte but the unreserved characters and {@code alsoKept}; {@code
   * alsoKept} null encodes every byte, unreserved ones too.
   */
  public static String percent(String value, String alsoKept, boolean upper) {
    StringBuilder out = new StringBuilder();
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      boolean keep =
          alsoKept != null
              && ((c >= 'a' && c <= 'z')
                  || (c >= 'A' && c <= 'Z')
                  || (c >= '0' && c <= '9')
                  || "-._~".indexOf(c) >= 0
                  || alsoKept.indexOf(c) >= 0);
      if (keep) {
        out.append(c);
      } else {
        String hex = String.format("%%%02X", b & 0xff);
        out.append(upper ? hex : hex.toLowerCase(Locale.ROOT));
      }
    }
    return out.toString();
  }

  /**
   * As an HTML page quotes it: {@code & < > " '} as named references, or with {@code numeric} every
   * ASCII character but letters and digits as {@code &#N;} ({@code &#xH;} with {@code hex}).
   */
  public static String html(String value, boolean numeric, boolean hex) {
    StringBuilder out = new StringBuilder();
    for (char c : value.toCharArray()) {
      boolean plain = c >= 0x80 || Character.isLetterOrDigit(c);
      if (numeric && !plain) {
        out.append(hex ? String.format("&#x%X;", (int) c) : "&#" + (int) c + ";");
        continue;
      }
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  /**
   * Names of the non-ASCII characters the tested secrets hold, as PHP's htmlentities writes them.
   */
  private static final Map<Integer, String> NAMES =
      Map.of(
          0xe4, "auml", 0xf6, "ouml", 0xfc, "uuml", 0xdf, "szlig", 0x20ac, "euro", 0xe9, "eacute");

  /**
   * As PHP's {@code htmlentities} writes it: {@code & < > "} and every non-ASCII character with a
   * name as its named reference ({@code &euro;}), the rest as {@code &#xH;}.
   */
  public static String htmlEntities(String value) {
    StringBuilder out = new StringBuilder();
    value
        .codePoints()
        .forEach(
            c -> {
              if (c < 0x80) {
                out.append(html(Character.toString(c), false, false));
              } else if (NAMES.containsKey(c)) {
                out.append('&').append(NAMES.get(c)).append(';');
              } else {
                out.append(String.format("&#x%X;", c));
              }
            });
    return out.toString();
  }

  /** Each named reference's name upper-cased ({@code &euro;} as {@code &EURO;}). */
  public static String upperNames(String html) {
    return java.util.regex.Pattern.compile("&([A-Za-z][A-Za-z0-9]*;)")
        .matcher(html)
        .replaceAll(m -> "&" + m.group(1).toUpperCase(Locale.ROOT));
  }

  /**
   * Every printable ASCII character as its fullwidth form (U+FF01 to U+FF5E), a space as U+3000.
   */
  public static String fullwidth(String value) {
    StringBuilder out = new StringBuilder();
    value
        .codePoints()
        .forEach(
            c ->
                out.appendCodePoint(
                    c == ' ' ? 0x3000 : c > ' ' && c < 0x7f ? c - 0x21 + 0xFF01 : c));
    return out.toString();
  }

  /**
   * Every character but letters and digits as a hex reference with leading zeros, {@code
   * &#x0001F600;}.
   */
  public static String htmlPadded(String value) {
    StringBuilder out = new StringBuilder();
    value
        .codePoints()
        .forEach(
            c -> {
              if (c < 0x80 && Character.isLetterOrDigit(c)) {
                out.appendCodePoint(c);
              } else {
                out.append(String.format("&#x%08X;", c));
              }
            });
    return out.toString();
  }

  /**
   * As a JSON string's content: '/' as {@code \/}, quotes and backslashes escaped, non-ASCII as
   * \\u.
   */
  public static String jsonEscaped(String value) {
    StringBuilder out = new StringBuilder();
    for (char c : value.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '/' -> out.append("\\/");
        default -> {
          if (c < 0x20 || c > 0x7e) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }

  /** Every other hex digit of each {@code %XX} in lower case ({@code %e4}, {@code %C3}, ...). */
  public static String mixedCase(String percentEncoded) {
    StringBuilder out = new StringBuilder();
    boolean lower = false;
    for (int i = 0; i < percentEncoded.length(); i++) {
      char c = percentEncoded.charAt(i);
      if (c == '%' && i + 2 < percentEncoded.length()) {
        String hex = percentEncoded.substring(i + 1, i + 3);
        out.append('%').append(lower ? hex.toLowerCase(Locale.ROOT) : hex);
        lower = !lower;
        i += 2;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /**
   * Each character in turn plain, as a decimal reference, a hex one ({@code &#x41;}, then {@code
   * &#X41;}) and, where it has one, a named one ({@code &amp;}).
   */
  public static String htmlMixed(String value) {
    StringBuilder out = new StringBuilder();
    int[] k = {0};
    value
        .codePoints()
        .forEach(
            c -> {
              String named = c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '"' ? "&quot;" : null;
              switch (k[0]++ % 4) {
                case 0 -> out.append(named != null ? named : Character.toString(c));
                case 1 -> out.append("&#").append(c).append(';');
                case 2 -> out.append(String.format("&#x%x;", c));
                default -> out.append(String.format("&#X%X;", c));
              }
            });
    return out.toString();
  }

  /** Every other UTF-16 unit as a JSON \\u escape, the rest as a JSON string holds them. */
  public static String jsonMixed(String value) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (i % 2 == 1 || c < 0x20 || c == '"' || c == '\\') {
        out.append(String.format("\\u%04X", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /**
   * Quoted-printable (RFC 2045): '=' and every byte outside printable ASCII as {@code =XX} of its
   * UTF-8 bytes, with {@code softBreak} ({@code =} and a line break) at its middle.
   */
  public static String quotedPrintable(String value, boolean upper, String softBreak) {
    StringBuilder out = new StringBuilder();
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < bytes.length; i++) {
      if (i == bytes.length / 2) {
        out.append(softBreak);
      }
      int b = bytes[i] & 0xFF;
      if (b >= 0x20 && b < 0x7F && b != '=') {
        out.append((char) b);
      } else {
        String hex = String.format("=%02X", b);
        out.append(upper ? hex : hex.toLowerCase(Locale.ROOT));
      }
    }
    return out.toString();
  }

  /**
   * {@code lineBreak} a third of the way into {@code value}: the shorter part is less than half of
   * it (a fold in the middle leaves two halves, each found as a run of half the secret).
   */
  public static String fold(String value, String lineBreak) {
    int middle = value.offsetByCodePoints(0, value.codePointCount(0, value.length()) / 3);
    return value.substring(0, middle) + lineBreak + value.substring(middle);
  }

  /** {@code mark} after every {@code every} code points. */
  public static String spread(String value, String mark, int every) {
    StringBuilder out = new StringBuilder();
    int[] n = {0};
    value
        .codePoints()
        .forEach(
            c -> {
              out.appendCodePoint(c);
              if (++n[0] % every == 0) {
                out.append(mark);
              }
            });
    return out.toString();
  }

  /** Its code points in reverse order. */
  public static String reversed(String value) {
    return new StringBuilder(value).reverse().toString();
  }

  /** Each ASCII letter moved 13 places in its alphabet. */
  public static String rot13(String value) {
    StringBuilder out = new StringBuilder();
    for (char c : value.toCharArray()) {
      boolean lower = c >= 'a' && c <= 'z';
      boolean upper = c >= 'A' && c <= 'Z';
      char base = lower ? 'a' : 'A';
      out.append(lower || upper ? (char) (base + (c - base + 13) % 26) : c);
    }
    return out.toString();
  }

  /** Each code point twice. */
  public static String doubled(String value) {
    StringBuilder out = new StringBuilder();
    value.codePoints().forEach(c -> out.appendCodePoint(c).appendCodePoint(c));
    return out.toString();
  }
}
