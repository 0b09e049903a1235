package io.github.appsetmapper.diff;

import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.text.Printable;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The report for a terminal: one block per mapping, one line per input with its counts, a line per
 * row added ({@code +}), removed ({@code -}) or changed ({@code ~}), then the summary. Every value
 * is redacted, written as JSON, and control characters are escaped: a value cannot move the cursor
 * or forge a line.
 */
public final class TextReport {
  private TextReport() {}

  public static String render(DiffReport report, UnaryOperator<String> redact, int maxRows) {
    StringBuilder out = new StringBuilder();
    out.append("diff ")
        .append(safe(redact.apply(report.before())))
        .append(" -> ")
        .append(safe(redact.apply(report.after())))
        .append('\n');
    for (MappingDiff m : report.mappings()) {
      out.append("\nmapping ").append(m.name());
      switch (m.presence()) {
        case ADDED -> out.append(": added (only in the new version)");
        case REMOVED -> out.append(": removed (only in the old version)");
        case RENAMED -> out.append(": renamed from ").append(m.previousName());
        case BOTH -> {}
      }
      out.append(m.key().isEmpty() ? " (no key)" : " (key: " + String.join(", ", m.key()) + ")");
      out.append('\n');
      if (m.note() != null) {
        out.append("  ").append(safe(redact.apply(m.note()))).append('\n');
      }
      for (InputDiff i : m.inputs()) {
        input(out, i, redact, maxRows);
      }
    }
    out.append('\n').append(report.summary()).append('\n');
    out.append(report.changed() ? "changes\n" : "no change\n");
    return out.toString();
  }

  private static void input(StringBuilder out, InputDiff i, UnaryOperator<String> redact, int max) {
    out.append("  ")
        .append(i.error() ? "! " : i.changed() ? "* " : "  ")
        .append(safe(i.label(redact)))
        .append(": ")
        .append(safe(redact.apply(i.before().describe())))
        .append(" -> ")
        .append(safe(redact.apply(i.after().describe())));
    RowDiff rows = i.rows();
    if (rows == null) {
      out.append(
              i.error()
                  ? " (both sides fail alike: not compared)"
                  : i.changed() ? "" : " (both sides fail alike, as the test case expects)")
          .append('\n');
      return;
    }
    out.append(": ")
        .append(rows.added().size())
        .append(" added, ")
        .append(rows.removed().size())
        .append(" removed, ")
        .append(rows.changed().size())
        .append(" changed\n");
    rows(out, "+ ", rows.added(), redact, max);
    rows(out, "- ", rows.removed(), redact, max);
    int shown = 0;
    for (RowDiff.ChangedRow row : rows.changed()) {
      if (shown++ == max) {
        out.append("      ~ ... ").append(rows.changed().size() - max).append(" more\n");
        break;
      }
      out.append("      ~ ").append(value(row.key(), redact)).append('\n');
      for (RowDiff.ParameterChange p : row.parameters()) {
        out.append("          ")
            .append(safe(redact.apply(p.name())))
            .append(": ")
            .append(p.hadBefore() ? value(p.before(), redact) : "(absent)")
            .append(" -> ")
            .append(p.hasAfter() ? value(p.after(), redact) : "(absent)")
            .append('\n');
      }
    }
    if (!rows.keyed() && !rows.same()) {
      out.append("      (no key: a changed row shows as one removed and one added)\n");
    }
  }

  private static void rows(
      StringBuilder out,
      String mark,
      List<Map<String, Object>> rows,
      UnaryOperator<String> redact,
      int max) {
    for (int n = 0; n < rows.size(); n++) {
      if (n == max) {
        out.append("      ")
            .append(mark)
            .append("... ")
            .append(rows.size() - max)
            .append(" more\n");
        return;
      }
      out.append("      ").append(mark).append(value(rows.get(n), redact)).append('\n');
    }
  }

  static String value(Object value, UnaryOperator<String> redact) {
    return safe(JsonCodec.write(Redacted.deep(value, redact)));
  }

  /** Control characters (and DEL, and the C1 range) written as {@code \\uXXXX}. */
  static String safe(String text) {
    return Printable.escape(text);
  }
}
