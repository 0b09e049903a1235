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
  static final NeedleIndex EMPTY =
      new NeedleIndex(Map.of(), new long[1 << 10], Integer.MAX_VALUE, 0);

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

  /** How many forms the index holds: each entry's {@link Entry#id} is below it. */
  private final int forms;

  private NeedleIndex(Map<Integer, Entry[]> byKey, long[] filter, int shortest, int forms) {
    this.byKey = byKey;
    this.filter = filter;
    this.shortest = shortest;
    this.forms = forms;
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
    int id = 0;
    for (Needles needles : values) {
      for (byte[] form : needles.forms()) {
        int formId = id++;
        Characters characters = new Characters(form);
        for (int at = 0; at + KEY <= form.length; at++) {
          int run = needles.runs() ? run(form, at, characters) : form.length;
          if (at > 0 && form.length - at < run) {
            break;
          }
          shortest = Math.min(shortest, run);
          int key = key(form, at);
          lists.computeIfAbsent(key, k -> new ArrayList<>()).add(new Entry(form, formId, at, run));
          int bit = bit(key);
          filter[bit >>> 6] |= 1L << bit;
        }
      }
    }
    Map<Integer, Entry[]> byKey = new HashMap<>();
    lists.forEach((k, v) -> byKey.put(k, v.toArray(new Entry[0])));
    return new NeedleIndex(Map.copyOf(byKey), filter, shortest, id);
  }

  /**
   * A place in a form where a match may start: the form (and its number in the index), the offset,
   * the run that suffices.
   */
  private record Entry(byte[] form, int id, int at, int run) {}

  /**
   * The bytes from {@code at} that give a form's value away: half of the form, and at least {@link
   * #RUN}, counted in bytes or in characters, whichever is fewer there. Half, so that an echo cut
   * short (a token's first 20 of 26 characters, all but its last) is caught while a word a secret
   * happens to hold ("registry" in "registry-pass-2024") is not blanked wherever it stands. In
   * characters too, because the promise counts characters: half of "abcdefghijklmnop€€€€" is its
   * first ten, 10 bytes where half its 28 bytes is 14.
   */
  private static int run(byte[] form, int at, Characters characters) {
    int bytes = half(form.length);
    return Math.min(bytes, characters.bytesHolding(at, half(characters.count())));
  }

  private static int half(int length) {
    return Math.min(length, Math.max(RUN, (length + 1) / 2));
  }

  /**
   * Where the characters of a form start: read once per form, so that the run of each of its
   * offsets is found at once (a long secret's forms took their length squared). Of a UTF-8 form its
   * code points, of a single-byte charset's (Latin-1's 0xE4 for ä, {@link ByteEchoes#bytes}) each
   * byte no lead byte announced: 0x80 to 0xBF is a continuation only after a lead byte.
   */
  private static final class Characters {
    private final int length;

    /** The byte each character starts at. */
    private final int[] starts;

    /** The character each byte belongs to. */
    private final int[] of;

    private final int count;

    Characters(byte[] form) {
      length = form.length;
      starts = new int[form.length];
      of = new int[form.length];
      int c = -1;
      for (int b = 0; b < form.length; ) {
        int end = next(form, b);
        starts[++c] = b;
        for (int i = b; i < end; i++) {
          of[i] = c;
        }
        b = end;
      }
      count = c + 1;
    }

    int count() {
      return count;
    }

    /**
     * How many bytes from {@code at} hold {@code count} characters (the rest of one {@code at}
     * falls inside counts as one), or {@link Integer#MAX_VALUE} when the form ends first.
     */
    int bytesHolding(int at, int wanted) {
      int end = of[at] + wanted;
      if (end > count) {
        return Integer.MAX_VALUE;
      }
      return (end == count ? length : starts[end]) - at;
    }
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
    // Case-folded whole (Python's casefold, a folding gateway): upper- then lower-cased, which
    // expands as full folding does, "ß" to "ss", the ligature "ﬁ" to "fi".
    texts.add(value.toUpperCase(java.util.Locale.ROOT).toLowerCase(java.util.Locale.ROOT));
    // Its canonical decomposition (NFD): found in the text through its NFKC view, but base64 of it
    // (a decomposing client encoded it) is decoded to bytes that are looked at as they are.
    texts.add(java.text.Normalizer.normalize(value, java.text.Normalizer.Form.NFD));
    // Its bytes in hex, as a debug page or a dump shows a token: either case, and with a ':', a
    // space or a '-' between the bytes (openssl, xxd, a MAC address's style).
    byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
    for (String separator : List.of("", ":", " ", "-")) {
      String hex = java.util.HexFormat.ofDelimiter(separator).formatHex(utf8);
      texts.add(hex);
      texts.add(hex.toUpperCase(java.util.Locale.ROOT));
    }
    texts.addAll(latin1Echoes(value));
    texts.addAll(ByteEchoes.of(value));
    // Reversed, ROT13, each character doubled (TextEchoes).
    texts.addAll(TextEchoes.of(value));
    // Every view is looked at without line breaks and invisible characters (Folds.unfolded): so is
    // every form (a PEM key's line breaks, a secret holding a zero-width joiner).
    for (String text : List.copyOf(texts)) {
      texts.add(Folds.stripped(text));
    }
    List<byte[]> out = new ArrayList<>();
    for (byte[] bytes : ByteEchoes.bytes(value)) {
      out.add(Folds.stripped(bytes));
    }
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
  long find(TextView view, Spans spans) {
    long compared = 0;
    byte[] bytes = view.bytes;
    // For each form, the last text position its start was compared at and how far the match went:
    // the next positions on that diagonal are known without comparing again, so a text holding a
    // long secret over and over costs its length, not its length times the secret's.
    int[] diagonal = null;
    int[] reach = null;
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
      if (diagonal == null) {
        diagonal = new int[forms];
        reach = new int[forms];
        java.util.Arrays.fill(diagonal, Integer.MIN_VALUE);
      }
      for (Entry entry : candidates) {
        byte[] form = entry.form();
        int id = entry.id();
        int run;
        if (diagonal[id] == i - entry.at() && reach[id] > i) {
          run = reach[id] - i;
        } else {
          int most = Math.min(view.length - i, form.length - entry.at());
          int differs = Arrays.mismatch(bytes, i, i + most, form, entry.at(), entry.at() + most);
          run = differs < 0 ? most : differs;
          compared += run + 1;
          diagonal[id] = i - entry.at();
          reach[id] = i + run;
        }
        if (run >= entry.run()) {
          spans.add(view.from[i], view.to[i + run - 1]);
        }
      }
    }
    return compared;
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
