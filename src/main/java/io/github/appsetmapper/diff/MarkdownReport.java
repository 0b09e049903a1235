package io.github.appsetmapper.diff;

import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The report as GitHub-flavoured Markdown, for a pull-request comment: a summary, a table per
 * mapping with one line per input, the rows in a collapsed block. Every value is data: redacted,
 * written as JSON inside {@code <code>} with HTML escaped and {@code |} as an entity, so a value
 * can neither break the table, nor add markup, links or mentions. The comment stays under GitHub's
 * 65536 characters.
 */
public final class MarkdownReport {
  /** GitHub refuses a comment over 65536 characters; room is kept for the closing lines. */
  static final int MAX_CHARS = 60_000;

  private MarkdownReport() {}

  public static String render(DiffReport report, UnaryOperator<String> redact, int maxRows) {
    StringBuilder out = new StringBuilder();
    out.append("### appset-mapper diff: ")
        .append(report.changed() ? "changes" : "no change")
        .append("\n\n")
        .append(code(redact.apply(report.before())))
        .append(" → ")
        .append(code(redact.apply(report.after())))
        .append("<br>\n**")
        .append(report.summary())
        .append("**\n");
    for (MappingDiff m : report.mappings()) {
      StringBuilder block = new StringBuilder();
      mapping(block, m, redact, maxRows);
      if (out.length() + block.length() > MAX_CHARS) {
        out.append("\n_The rest is cut to fit a comment; run `appset-mapper diff` for all._\n");
        break;
      }
      out.append(block);
    }
    return out.toString();
  }

  private static void mapping(
      StringBuilder out, MappingDiff m, UnaryOperator<String> redact, int max) {
    out.append("\n#### ").append(code(m.name()));
    switch (m.presence()) {
      case ADDED -> out.append(" (added)");
      case REMOVED -> out.append(" (removed)");
      case RENAMED -> out.append(" (renamed from ").append(code(m.previousName())).append(')');
      case BOTH -> {}
    }
    out.append(m.key().isEmpty() ? " no key" : " key " + code(String.join(", ", m.key())));
    out.append("\n\n");
    if (m.note() != null) {
      out.append(escape(redact.apply(m.note()))).append("\n\n");
    }
    if (m.inputs().isEmpty()) {
      return;
    }
    out.append("| | input | before | after | added | removed | changed |\n");
    out.append("|---|---|---|---|--:|--:|--:|\n");
    for (InputDiff i : m.inputs()) {
      out.append("| ")
          .append(i.error() ? "❌" : i.changed() ? "⚠️" : "✅")
          .append(" | ")
          .append(code(i.label(redact)))
          .append(" | ")
          .append(code(redact.apply(i.before().describe())))
          .append(" | ")
          .append(code(redact.apply(i.after().describe())))
          .append(" | ")
          .append(i.added())
          .append(" | ")
          .append(i.removed())
          .append(" | ")
          .append(i.changedRows())
          .append(" |\n");
    }
    for (InputDiff i : m.inputs()) {
      if (i.rows() == null || i.rows().same()) {
        continue;
      }
      out.append("\n<details><summary>")
          .append(code(i.label(redact)))
          .append(": rows</summary>\n\n");
      rows(out, "added", i.rows().added(), redact, max);
      rows(out, "removed", i.rows().removed(), redact, max);
      int shown = 0;
      for (RowDiff.ChangedRow row : i.rows().changed()) {
        if (shown++ == max) {
          out.append("- … ").append(i.rows().changed().size() - max).append(" more changed\n");
          break;
        }
        out.append("- changed ").append(value(row.key(), redact)).append(": ");
        boolean first = true;
        for (RowDiff.ParameterChange p : row.parameters()) {
          out.append(first ? "" : ", ")
              .append(code(redact.apply(p.name())))
              .append(' ')
              .append(p.hadBefore() ? value(p.before(), redact) : "_absent_")
              .append(" → ")
              .append(p.hasAfter() ? value(p.after(), redact) : "_absent_");
          first = false;
        }
        out.append('\n');
      }
      if (!i.rows().keyed()) {
        out.append("\n_No key: a changed row shows as one removed and one added._\n");
      }
      out.append("\n</details>\n");
    }
  }

  private static void rows(
      StringBuilder out,
      String what,
      List<Map<String, Object>> rows,
      UnaryOperator<String> redact,
      int max) {
    for (int n = 0; n < rows.size(); n++) {
      if (n == max) {
        out.append("- … ").append(rows.size() - max).append(" more ").append(what).append('\n');
        return;
      }
      out.append("- ").append(what).append(' ').append(value(rows.get(n), redact)).append('\n');
    }
  }

  private static String value(Object value, UnaryOperator<String> redact) {
    return code(TextReport.value(value, redact));
  }

  /** Text as inline code that nothing in it can escape from. */
  static String code(String text) {
    return "<code>" + escape(TextReport.safe(text)) + "</code>";
  }

  static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (char c : text.toCharArray()) {
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        case '|' -> out.append("&#124;");
        case '`' -> out.append("&#96;");
        case '@' -> out.append("&#64;");
        case '[' -> out.append("&#91;");
        case ']' -> out.append("&#93;");
        case '*' -> out.append("&#42;");
        case '_' -> out.append("&#95;");
        case '\\' -> out.append("&#92;");
        case '#' -> out.append("&#35;");
        case ':' -> out.append("&#58;");
        case '~' -> out.append("&#126;");
        case '\n', '\r' -> out.append(' ');
        default -> {
          // Bidirectional controls would reverse what the reviewer reads: shown, not obeyed.
          if ((c >= '\u202a' && c <= '\u202e') || (c >= '\u2066' && c <= '\u2069')) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }
}
