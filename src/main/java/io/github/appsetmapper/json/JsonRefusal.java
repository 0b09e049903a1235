package io.github.appsetmapper.json;

import java.io.IOException;

/**
 * JSON (or YAML, or text) that a reader refuses, with a one-line reason: not JSON at all ({@link
 * Kind#SYNTAX}), a key twice in one object, a number beyond the bounds, past a size limit (nesting,
 * string length, aliases), or something the reader does not take (a YAML tag).
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
    UNSUPPORTED
  }

  private final Kind kind;
  private final String where;

  JsonRefusal(Kind kind, String reason, String where) {
    super(reason);
    this.kind = kind;
    this.where = where;
  }

  public Kind kind() {
    return kind;
  }

  /** The reason, without a position: "the key 'items' appears twice in one object". */
  public String reason() {
    return getMessage();
  }

  /** The reason with its position when known: "... (line 1, column 30)". */
  public String located() {
    return where == null ? getMessage() : getMessage() + " (" + where + ")";
  }
}
