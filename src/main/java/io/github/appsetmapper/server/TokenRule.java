package io.github.appsetmapper.server;

import java.util.ArrayList;
import java.util.List;

/**
 * What a server token may be, wherever it comes from ({@code APPSET_MAPPER_TOKEN}, a line of the
 * token file, the webhook secret): one rule, so that no source lets through what another refuses.
 *
 * <ul>
 *   <li>At least {@link #MIN_LENGTH} characters: a shorter one is guessable, and the redactor,
 *       whose criterion is half a secret and eight characters at the least, cannot scrub it.
 *   <li>Printable ASCII and inner spaces only: a control character (a tab, a CR inside the line, an
 *       escape) or a character beyond ASCII cannot travel in an HTTP header as the same bytes, so
 *       such a token would be accepted here and never match what a caller sends.
 * </ul>
 *
 * Spaces around a token (and a line's CR, a file saved on Windows) are not part of it, as the
 * server strips them from the {@code Authorization} header too. A refusal names the source and the
 * line, and the rule broken: never the token, nor a character of it.
 */
public final class TokenRule {
  /** The shortest token accepted: the redactor's shortest scrubbed run (docs/security.md, 3). */
  public static final int MIN_LENGTH = 8;

  private TokenRule() {}

  /**
   * Why {@code token} (already stripped) is refused, or null when it is accepted.
   *
   * @param noun what it is, as the line names it: {@code token}, {@code secret}
   */
  public static String problem(String token, String noun) {
    if (token.length() < MIN_LENGTH) {
      return "a " + noun + " must be at least " + MIN_LENGTH + " characters";
    }
    for (int i = 0; i < token.length(); i++) {
      char c = token.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        return "a "
            + noun
            + " cannot hold a control character (a tab, a CR, an escape): an HTTP header"
            + " cannot carry it";
      }
      if (c > 0x7e) {
        return "a "
            + noun
            + " must be printable ASCII: a character beyond it is not sent in an HTTP"
            + " header as the same bytes";
      }
    }
    return null;
  }

  /**
   * The tokens of {@code content}, one per line, blank lines skipped; refused whole, as {@link
   * Refused} naming {@code source} and the line, when it holds none or one line breaks the rule.
   */
  public static List<String> tokens(String source, String noun, String content) throws Refused {
    String[] lines = content.split("\\R");
    List<String> out = new ArrayList<>();
    for (int i = 0; i < lines.length; i++) {
      String token = lines[i].strip();
      if (token.isEmpty()) {
        continue;
      }
      String problem = problem(token, noun);
      if (problem != null) {
        throw new Refused(source + (lines.length > 1 ? " line " + (i + 1) : "") + ": " + problem);
      }
      out.add(token);
    }
    if (out.isEmpty()) {
      throw new Refused(source + " holds no " + noun);
    }
    return List.copyOf(out);
  }

  /** A token source refused by the rule: its message names the source, never a token. */
  public static final class Refused extends java.io.IOException {
    Refused(String message) {
      super(message);
    }
  }
}
