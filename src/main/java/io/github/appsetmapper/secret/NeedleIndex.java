package io.github.appsetmapper.secret;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The byte forms of every secret value, indexed by their first four bytes, found in a {@link
 * TextView} in one pass. A value's forms are its UTF-8 bytes and, because base64 is decoded from
 * the text rather than encoded from the secret, the encoded forms a secret takes before it is
 * base64-encoded on the wire: percent-encoded as a URL carries it and form-encoded as an OAuth2
 * client's Basic credentials carry it. Immutable.
 */
final class NeedleIndex {
  static final NeedleIndex EMPTY = new NeedleIndex(Map.of(), new long[1 << 10], Integer.MAX_VALUE);

  /** Four bytes: the key length, and the shortest form indexed. */
  static final int KEY = 4;

  /**
   * The shortest run of a secret's bytes that gives it away wherever it stands: eight, the piece
   * the tests look for (shorter runs of a random token turn up by chance in ordinary text).
   */
  static final int RUN = 8;

  private final Map<Integer, Entry[]> byKey;

  /** One bit per hashed key: most positions of a text are rejected without a map lookup. */
  private final long[] filter;

  /** The fewest bytes any match needs: a shorter text holds none, in any of its decodings. */
  private final int shortest;

  private NeedleIndex(Map<Integer, Entry[]> byKey, long[] filter, int shortest) {
    this.byKey = byKey;
    this.filter = filter;
    this.shortest = shortest;
  }

  /**
   * The forms of one value, and whether any run of {@link #RUN} bytes of them gives the value away
   * ({@code runs}: a secret or a token, whose prefix an upstream may quote cut short) or only the
   * whole form does (a value computed from a secret, which may hold a template's own text).
   */
  record Needles(List<byte[]> forms, boolean runs) {}

  /** The index of every form of each value (as {@link #forms} gives them). */
  static NeedleIndex of(Collection<Needles> values) {
    Map<Integer, List<Entry>> lists = new HashMap<>();
    long[] filter = new long[1 << 10];
    int shortest = Integer.MAX_VALUE;
    for (Needles needles : values) {
      for (byte[] form : needles.forms()) {
        for (int at = 0; at + KEY <= form.length; at++) {
          int run = needles.runs() ? run(form, at) : form.length;
          if (at > 0 && form.length - at < run) {
            break;
          }
          shortest = Math.min(shortest, run);
          int key = key(form, at);
          lists.computeIfAbsent(key, k -> new ArrayList<>()).add(new Entry(form, at, run));
          int bit = bit(key);
          filter[bit >>> 6] |= 1L << bit;
        }
      }
    }
    Map<Integer, Entry[]> byKey = new HashMap<>();
    lists.forEach((k, v) -> byKey.put(k, v.toArray(new Entry[0])));
    return new NeedleIndex(Map.copyOf(byKey), filter, shortest);
  }

  /** A place in a form where a match may start: the form, the offset, the run that suffices. */
  private record Entry(byte[] form, int at, int run) {}

  /**
   * The bytes from {@code at} that give a form's value away: half of the form, and at least {@link
   * #RUN}, counted in bytes or in characters, whichever is fewer there. Half, so that an echo cut
   * short (a token's first 20 of 26 characters, all but its last) is caught while a word a secret
   * happens to hold ("registry" in "registry-pass-2024") is not blanked wherever it stands. In
   * characters too, because the promise counts characters: half of "abcdefghijklmnop€€€€" is its
   * first ten, 10 bytes where half its 28 bytes is 14.
   */
  private static int run(byte[] form, int at) {
    int bytes = half(form.length);
    return Math.min(bytes, bytesHolding(form, at, half(characters(form))));
  }

  private static int half(int length) {
    return Math.min(length, Math.max(RUN, (length + 1) / 2));
  }

  /**
   * The characters of a form: of a UTF-8 form its code points, of a single-byte charset's
   * (Latin-1's 0xE4 for ä, {@link ByteEchoes#bytes}) each byte no lead byte announced.
   */
  private static int characters(byte[] form) {
    int count = 0;
    for (int i = 0; i < form.length; i = next(form, i)) {
      count++;
    }
    return count;
  }

  /**
   * Where the character at {@code i} ends: a lead byte's announced continuations, else one byte.
   */
  private static int next(byte[] form, int i) {
    int b = form[i] & 0xFF;
    int more = b >= 0xF0 ? 3 : b >= 0xE0 ? 2 : b >= 0xC0 ? 1 : 0;
    int end = i + 1;
    while (more-- > 0 && end < form.length && (form[end] & 0xC0) == 0x80) {
      end++;
    }
    return end;
  }

  /**
   * How many bytes from {@code at} hold {@code count} characters (the rest of one {@code at} falls
   * inside counts as one), or {@link Integer#MAX_VALUE} when the form ends first.
   */
  private static int bytesHolding(byte[] form, int at, int count) {
    int i = at;
    for (int c = 0; c < count; c++) {
      if (i >= form.length) {
        return Integer.MAX_VALUE;
      }
      if (i == at && (form[i] & 0xC0) == 0x80) {
        i++;
        while (i < form.length && i - at < 3 && (form[i] & 0xC0) == 0x80) {
          i++;
        }
      } else {
        i = next(form, i);
      }
    }
    return i - at;
  }

  /**
   * The texts one value takes before base64, in this order (equal ones repeated): as it is,
   * percent-encoded, form-encoded (an OAuth2 client's Basic credentials, RFC 6749 2.3.1).
   */
  static List<String> textForms(String value) {
    return List.of(value, percentEncoded(value), URLEncoder.encode(value, StandardCharsets.UTF_8));
  }

  /** The distinct byte forms of one value that are long enough to look for. */
  static List<byte[]> forms(String value) {
    Set<String> texts = new LinkedHashSet<>(textForms(value));
    // An upstream that echoes a token lower- or upper-cased (a hex digest, a case-folding
    // gateway) still gives it away.
    texts.add(value.toLowerCase(java.util.Locale.ROOT));
    texts.add(value.toUpperCase(java.util.Locale.ROOT));
    // Its compatibility composed form (NFKC), as the text is looked at too (Normalized): an echo
    // decomposed (a and U+0308 for ä) or in fullwidth letters is the same text there.
    texts.add(java.text.Normalizer.normalize(value, java.text.Normalizer.Form.NFKC));
    // Its bytes in hex, as a debug page or a dump shows a token: either case.
    String hex = java.util.HexFormat.of().formatHex(value.getBytes(StandardCharsets.UTF_8));
    texts.add(hex);
    texts.add(hex.toUpperCase(java.util.Locale.ROOT));
    texts.addAll(latin1Echoes(value));
    texts.addAll(ByteEchoes.of(value));
    List<byte[]> out = new ArrayList<>(ByteEchoes.bytes(value));
    for (String text : texts) {
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      if (bytes.length >= KEY) {
        out.add(bytes);
      }
    }
    return out;
  }

  /**
   * What an upstream echoes of a secret sent in a header, where it goes as Latin-1 bytes: a UTF-8
   * reader makes each byte past ASCII a U+FFFD (or a '?'), a Latin-1 page percent-encodes it
   * ({@code %E4}, as JavaScript's {@code escape} writes). Without these, every ASCII run of {@code
   * Pässwörd-Straße} came back readable, each shorter than half the secret. None for an ASCII
   * secret.
   */
  static List<String> latin1Echoes(String value) {
    if (value.chars().allMatch(c -> c < 0x80)) {
      return List.of();
    }
    StringBuilder replaced = new StringBuilder();
    StringBuilder asked = new StringBuilder();
    StringBuilder upper = new StringBuilder();
    StringBuilder lower = new StringBuilder();
    value
        .codePoints()
        .forEach(
            c -> {
              boolean ascii = c < 0x80;
              replaced.appendCodePoint(ascii ? c : 0xFFFD);
              asked.appendCodePoint(ascii ? c : '?');
              String hex = c <= 0xFF ? String.format("%%%02X", c) : "?";
              upper.append(ascii ? String.valueOf((char) c) : hex);
              lower.append(
                  ascii ? String.valueOf((char) c) : hex.toLowerCase(java.util.Locale.ROOT));
            });
    return List.of(replaced.toString(), asked.toString(), upper.toString(), lower.toString());
  }

  boolean isEmpty() {
    return byKey.isEmpty();
  }

  /**
   * The fewest bytes of a view any form matches in ({@link Integer#MAX_VALUE} when empty): no
   * decoding makes a view longer than the text's UTF-8 bytes, so a text with fewer holds nothing.
   */
  int shortest() {
    return shortest;
  }

  /**
   * Adds to {@code spans} the original-text span of every form found whole in {@code view}, and of
   * every run of at least half a form (eight at the least, as {@link #run} counts) of a value whose
   * runs give it away (an echo cut short: the first 20 characters of a 26-character token).
   */
  void find(TextView view, Spans spans) {
    byte[] bytes = view.bytes;
    for (int i = 0; i + KEY <= view.length; i++) {
      int key = key(bytes, i);
      int bit = bit(key);
      if ((filter[bit >>> 6] & 1L << bit) == 0) {
        continue;
      }
      Entry[] candidates = byKey.get(key);
      if (candidates == null) {
        continue;
      }
      for (Entry entry : candidates) {
        byte[] form = entry.form();
        int most = Math.min(view.length - i, form.length - entry.at());
        int differs = Arrays.mismatch(bytes, i, i + most, form, entry.at(), entry.at() + most);
        int run = differs < 0 ? most : differs;
        if (run >= entry.run()) {
          spans.add(view.from[i], view.to[i + run - 1]);
        }
      }
    }
  }

  private static int key(byte[] bytes, int at) {
    return (bytes[at] & 0xFF) << 24
        | (bytes[at + 1] & 0xFF) << 16
        | (bytes[at + 2] & 0xFF) << 8
        | (bytes[at + 3] & 0xFF);
  }

  private static int bit(int key) {
    return (key * 0x9E3779B9) >>> 16;
  }

  /** RFC 3986: every byte but the unreserved characters as %XX (upper-case hex). */
  static String percentEncoded(String value) {
    StringBuilder out = new StringBuilder(value.length() + 8);
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xFF);
      if ((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '.'
          || c == '_'
          || c == '~') {
        out.append(c);
      } else {
        out.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xF, 16)));
        out.append(Character.toUpperCase(Character.forDigit(b & 0xF, 16)));
      }
    }
    return out.toString();
  }
}
