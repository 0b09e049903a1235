package io.github.appsetmapper.json;

import java.io.IOException;
import java.util.function.UnaryOperator;

/**
 * JSON (or YAML, or text) that a reader refuses, with a one-line reason: not JSON at all ({@link
 * Kind#SYNTAX}), a key twice in one object, a number beyond the bounds, past a size limit (nesting,
 * string length, aliases), or something the reader does not take (a YAML tag).
 *
 * <p>A reason may quote the document (the key given twice). The quote is kept whole, never cut
 * here: the codec cannot redact, and a secret cut before redaction no longer matches (an upstream
 * may use a token as a key). A reader that can redact shortens it through its redactor with {@link
 * #located(UnaryOperator)}; the plain forms quote it whole, for a later redaction of the whole.
 */
public final class JsonRefusal extends IOException {
  private static final long serialVersionUID = 1L;

  /** Why the text was refused. */
  public enum Kind {
    SYNTAX,
    DUPLICATE_KEY,
    NUMBER,
    LIMIT,
    /** What a reader does not take: a YAML tag, a key that is not a string, several documents. */
    UNSUPPORTED,
    /** A string that is not Unicode text: half of a surrogate pair. */
    TEXT
  }

  private final Kind kind;
  private final String before;
  private final String quoted;
  private final String after;
  private final String where;

  JsonRefusal(Kind kind, String reason, String where) {
    this(kind, reason, null, "", where);
  }

  /** A reason quoting {@code quoted} (document text) between {@code before} and {@code after}. */
  JsonRefusal(Kind kind, String before, String quoted, String after, String where) {
    super(before + (quoted == null ? "" : quoted) + after);
    this.kind = kind;
    this.before = before;
    this.quoted = quoted;
    this.after = after;
    this.where = where;
  }

  public Kind kind() {
    return kind;
  }

  /** The reason, without a position: "has the key 'items' twice in one object". */
  public String reason() {
    return getMessage();
  }

  /** The reason with its position when known: "... (line 1, column 30)". */
  public String located() {
    return located(UnaryOperator.identity());
  }

  /**
   * {@link #located()} with the quoted document text through {@code excerpt} (a redactor's excerpt:
   * redacted whole, then cut).
   */
  public String located(UnaryOperator<String> excerpt) {
    String reason = quoted == null ? before + after : before + excerpt.apply(quoted) + after;
    return where == null ? reason : reason + " (" + where + ")";
  }
}
