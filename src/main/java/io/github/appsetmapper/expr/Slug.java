package io.github.appsetmapper.expr;

import java.util.Objects;

/**
 * Argo CD's pull-request generator parameters {@code branch_slug} and {@code head_short_sha}.
 *
 * <p>Argo CD (applicationset/generators/pull_request.go) sets {@code slug.MaxLength = 50} and
 * {@code slug.CustomSub = {"_": "-"}}, then calls {@code slug.Make(branch)} from
 * github.com/gosimple/slug (v1.15.0, language "en"), which transliterates with
 * github.com/gosimple/unidecode (v1.0.1): its whole table, every script, is {@link UnidecodeTable}.
 *
 * <p>{@link #slug} gives what slug.MakeLang gives, in one pass: substitute, transliterate,
 * lowercase, turn what is not {@code [a-z0-9_-]} into a dash, collapse dashes, trim dashes and
 * underscores at both ends, then cut at the last dash within {@code maxLength}. It stops reading
 * once the cut can no longer change, so a long name costs no more than its first words.
 */
public final class Slug {

  private Slug() {}

  /**
   * gosimple/slug's {@code Make} as Argo CD configures it; Argo passes {@code maxLength} 50. {@code
   * maxLength <= 0} means no limit.
   *
   * <p>slug.Make first trims Unicode white space; every such character transliterates to a space, a
   * line break, "[?]" or nothing, which the end trim removes anyway, so that step is left out.
   */
  public static String slug(String text, int maxLength) {
    Objects.requireNonNull(text, "text");
    // The deadline checked as the text is read, and the slug bounded as any string built is:
    // a text of 2.5 million characters made a slug of as many.
    EvaluationBudget budget = EvaluationBudget.current();
    StringBuilder slug = new StringBuilder(Math.min(text.length(), 256));
    read:
    for (int i = 0; i < text.length(); ) {
      budget.tick();
      if (slug.length() > EvaluationBudget.MAX_STRING_CHARS) {
        budget.reserve(slug.length(), "#slug");
      }
      int codePoint = text.codePointAt(i);
      i += Character.charCount(codePoint);
      String ascii = substitution(codePoint);
      if (ascii == null && codePoint < 0x80) {
        if (appendDecides(slug, (char) codePoint, maxLength)) {
          break;
        }
        continue;
      }
      if (ascii == null) {
        // unidecode's table stops at the BMP and drops the rest (emoji).
        ascii = codePoint > 0xFFFF ? "" : UnidecodeTable.transliterate(codePoint);
      }
      for (int j = 0; j < ascii.length(); j++) {
        if (appendDecides(slug, ascii.charAt(j), maxLength)) {
          break read;
        }
      }
    }
    int end = slug.length();
    while (end > 0 && isTrimmed(slug.charAt(end - 1))) {
      end--;
    }
    slug.setLength(end);
    return maxLength > 0 ? smartTruncate(slug, maxLength) : slug.toString();
  }

  /**
   * Argo CD's {@code head_short_sha} (length 8) and {@code head_short_sha_7} (length 7): the SHA
   * cut to {@code min(len(sha), length)}, so a shorter SHA is returned whole.
   */
  public static String shortSha(String sha, int length) {
    Objects.requireNonNull(sha, "sha");
    if (length < 0) {
      throw new IllegalArgumentException("length must not be negative: " + length);
    }
    return sha.substring(0, Math.min(sha.length(), length));
  }

  /**
   * What a code point becomes before unidecode, or null: Argo CD's CustomSub {@code "_" -> "-"} (so
   * only an '_' unidecode emits survives), then gosimple/slug's "en" substitutions merged with its
   * defaultSub.
   */
  private static String substitution(int codePoint) {
    return switch (codePoint) {
      case '_', '‒', '–', '—', '―' -> "-";
      case '&' -> "and";
      case '@' -> "at";
      case '"', '\'', '’' -> "";
      default -> null;
    };
  }

  /** {@link #append}, then whether more input can no longer change the result. */
  private static boolean appendDecides(StringBuilder slug, char c, int maxLength) {
    append(slug, c);
    return maxLength > 0 && decided(slug, maxLength);
  }

  /**
   * Appends one transliterated character as the regexes and the start of the trim would leave it:
   * lowercase, {@code [^a-z0-9_-]} as a dash, no dash after a dash, nothing in {@code -_} first.
   */
  private static void append(StringBuilder slug, char c) {
    char lower = c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
    boolean kept = lower >= 'a' && lower <= 'z' || lower >= '0' && lower <= '9' || lower == '_';
    char next = kept ? lower : '-';
    if (slug.isEmpty() && isTrimmed(next)) {
      return;
    }
    if (next == '-' && slug.charAt(slug.length() - 1) == '-') {
      return;
    }
    slug.append(next);
  }

  /**
   * Whether more input can no longer change the result: the character just appended lies past index
   * {@code maxLength} and the end trim keeps it, so the cut sees exactly the characters it would
   * see on the whole name. Checked after every character, the first such one stops the read.
   */
  private static boolean decided(StringBuilder slug, int maxLength) {
    int last = slug.length() - 1;
    return last > maxLength && !isTrimmed(slug.charAt(last));
  }

  private static boolean isTrimmed(char c) {
    return c == '-' || c == '_';
  }

  /**
   * slug.go's smartTruncate: cut at the last '-' at or before index {@code maxLength}, else hard
   * cut at {@code maxLength}. The slug is ASCII here, so chars are Go's bytes.
   */
  private static String smartTruncate(CharSequence text, int maxLength) {
    if (text.length() <= maxLength) {
      return text.toString();
    }
    for (int i = maxLength; i >= 0; i--) {
      if (text.charAt(i) == '-') {
        return text.subSequence(0, i).toString();
      }
    }
    return text.subSequence(0, maxLength).toString();
  }
}
