package io.github.appsetmapper.secret;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The named character references of HTML (the WHATWG list: {@code &euro;}, {@code &auml;}, {@code
 * &NotEqualTilde;}, and the legacy ones a browser reads without ';', {@code &copy}), read from a
 * resource of this jar the first time a text holds one: an error page made by {@code htmlentities}
 * writes a secret's every non-ASCII character so.
 */
final class HtmlEntities {
  private static final String RESOURCE = "html-entities.tsv";

  /** The longest name with its ';' ({@code &CounterClockwiseContourIntegral;}). */
  static final int LONGEST = 33;

  private HtmlEntities() {}

  /** The code points a name stands for ("euro;", or "copy" without its ';'), or null. */
  static int[] codePoints(String name) {
    return Table.BY_NAME.get(name);
  }

  /**
   * A name no entry has in the case written, in another case: capitalised ({@code &AUML;} as {@code
   * &Auml;}, the capital letter) or in lower case ({@code &EURO;} as {@code &euro;}), the one
   * {@code capitalFirst} says first. Browsers read names in their own case only, but a page
   * upper-cased whole, a hand-made error page or an XML library may not: a secret quoted so must
   * still be found (a wrong guess costs a view, not a match).
   */
  static int[] anyCase(String name, boolean capitalFirst) {
    if (name.length() < 2) {
      return null;
    }
    String lower = name.toLowerCase(java.util.Locale.ROOT);
    String capitalised = Character.toUpperCase(name.charAt(0)) + lower.substring(1);
    int[] first = codePoints(capitalFirst ? capitalised : lower);
    return first != null ? first : codePoints(capitalFirst ? lower : capitalised);
  }

  /**
   * The longest legacy name, read without its ';' ({@code &middot}, {@code &frac34}, six letters):
   * a name without one is looked for no longer than this.
   */
  static int longestLegacy() {
    return Table.LONGEST_LEGACY;
  }

  /** Read on first use: most texts hold no named reference. */
  private static final class Table {
    static final Map<String, int[]> BY_NAME = read();
    static final int LONGEST_LEGACY =
        BY_NAME.keySet().stream()
            .filter(name -> !name.endsWith(";"))
            .mapToInt(String::length)
            .max()
            .orElse(0);
  }

  private static Map<String, int[]> read() {
    Map<String, int[]> byName = new HashMap<>(4096);
    try (InputStream in = HtmlEntities.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("resource " + RESOURCE + " is missing");
      }
      BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        int tab = line.indexOf('\t');
        String[] hex = line.substring(tab + 1).split(" ");
        int[] codePoints = new int[hex.length];
        for (int i = 0; i < hex.length; i++) {
          codePoints[i] = Integer.parseInt(hex[i], 16);
        }
        byName.put(line.substring(0, tab), codePoints);
      }
    } catch (IOException e) { // the resource is ours: a bug
      throw new UncheckedIOException(RESOURCE + ": " + e.getMessage(), e);
    }
    return Map.copyOf(byName);
  }
}
