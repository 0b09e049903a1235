package io.github.appsetmapper.expr;

import io.github.appsetmapper.json.JsonCodec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;
import net.gcardone.junidecode.Junidecode;

/**
 * gosimple/unidecode v1.0.1's transliteration table, the one Argo CD's {@code branch_slug} uses:
 * Text::Unidecode's tables as junidecode carries them, corrected where gosimple's differ (the
 * resource {@code unidecode-corrections.txt}: Japanese "shi", "chi", "tsu" instead of "si", "ti",
 * "tu", "" where gosimple has no entry, ...).
 *
 * <p>Only the BMP above ASCII: gosimple keeps ASCII as it is and drops every code point beyond
 * U+FFFF. Blocks of 256 code points are built on first use, so a server that only ever sees Latin
 * branch names never holds the CJK tables.
 */
final class UnidecodeTable {

  private static final String CORRECTIONS = "unidecode-corrections.txt";
  private static final Map<Integer, String> CORRECTED = readCorrections();
  private static final AtomicReferenceArray<String[]> BLOCKS = new AtomicReferenceArray<>(256);

  private UnidecodeTable() {}

  /** The ASCII transliteration of a code point in U+0080..U+FFFF ("" for none). */
  static String transliterate(int codePoint) {
    if (codePoint < 0x80 || codePoint > 0xFFFF) {
      throw new IllegalArgumentException("not a BMP code point above ASCII: " + codePoint);
    }
    int high = codePoint >> 8;
    String[] block = BLOCKS.get(high);
    if (block == null) {
      BLOCKS.compareAndSet(high, null, block(high));
      block = BLOCKS.get(high);
    }
    return block[codePoint & 0xFF];
  }

  private static String[] block(int high) {
    String[] values = new String[256];
    for (int low = 0; low < 256; low++) {
      int codePoint = high << 8 | low;
      String corrected = CORRECTED.get(codePoint);
      // One char at a time: junidecode maps a supplementary code point into a BMP block, and
      // gives "" for a lone surrogate, as gosimple gives for U+FFFD (what Go reads one as).
      values[low] =
          corrected != null ? corrected : Junidecode.unidecode(String.valueOf((char) codePoint));
    }
    return values;
  }

  private static Map<Integer, String> readCorrections() {
    Map<Integer, String> corrected = new HashMap<>();
    try (InputStream in = UnidecodeTable.class.getResourceAsStream(CORRECTIONS)) {
      if (in == null) {
        throw new IllegalStateException("resource " + CORRECTIONS + " is missing");
      }
      BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        int space = line.indexOf(' ');
        String codePoints = line.substring(0, space);
        List<?> values = (List<?>) JsonCodec.read(line.substring(space + 1));
        int range = codePoints.indexOf("..");
        if (range < 0) {
          int first = Integer.parseInt(codePoints, 16);
          for (int i = 0; i < values.size(); i++) {
            corrected.put(first + i, (String) values.get(i));
          }
        } else {
          int first = Integer.parseInt(codePoints.substring(0, range), 16);
          int last = Integer.parseInt(codePoints.substring(range + 2), 16);
          for (int codePoint = first; codePoint <= last; codePoint++) {
            corrected.put(codePoint, (String) values.get(0));
          }
        }
      }
    } catch (IOException e) { // a refused JSON list too: the resource is ours, so a bug
      throw new UncheckedIOException(CORRECTIONS + ": " + e.getMessage(), e);
    }
    return Map.copyOf(corrected);
  }
}
