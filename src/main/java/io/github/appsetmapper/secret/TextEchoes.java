package io.github.appsetmapper.secret;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The texts a secret becomes when an upstream rewrites it by a fixed rule any writer of an error
 * message may apply: reversed, ROT13 (a "hidden" value in a debug page), each character doubled (a
 * stuttering echo), and without its line breaks and invisible characters (a PEM key folded
 * otherwise, seen through {@link Folds#unfolded}). Each is one more form of the secret, searched in
 * every view in the same pass as the others: no view and no work per character of the text. A rule
 * that takes a key or a choice (XOR, a Caesar shift other than 13, every other character, the
 * secret spread over several values) has no one form and is not looked for: docs/security.md says
 * why.
 */
final class TextEchoes {
  private TextEchoes() {}

  /** The rewritten texts of {@code value} that differ from it. */
  static List<String> of(String value) {
    Set<String> out = new LinkedHashSet<>();
    out.add(new StringBuilder(value).reverse().toString()); // keeps surrogate pairs in order
    out.add(rot13(value));
    out.add(doubled(value));
    out.remove(value);
    return List.copyOf(out);
  }

  /** Each ASCII letter moved 13 places in its alphabet; anything else as it is. */
  static String rot13(String value) {
    StringBuilder out = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c >= 'a' && c <= 'z') {
        out.append((char) ('a' + (c - 'a' + 13) % 26));
      } else if (c >= 'A' && c <= 'Z') {
        out.append((char) ('A' + (c - 'A' + 13) % 26));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /** Each code point written twice ({@code ttookk}). */
  static String doubled(String value) {
    StringBuilder out = new StringBuilder(value.length() * 2);
    value.codePoints().forEach(c -> out.appendCodePoint(c).appendCodePoint(c));
    return out.toString();
  }
}
