package io.github.appsetmapper.explain;

import io.github.appsetmapper.text.Plural;
import io.github.appsetmapper.text.Printable;
import java.util.Locale;

/**
 * The report as text for a terminal: calls as a table, stages with their drops, rows, answer. Every
 * value that may carry upstream or request data (a URL, an error, a reason, a label, JSON) goes
 * through {@link Printable}: an escape sequence or a line break in it is shown, never obeyed.
 */
final class ExplainText {
  private ExplainText() {}

  private static String shown(String text) {
    return Printable.escape(text);
  }

  private static String compact(Object value) {
    return Printable.escape(ExplainFormat.compact(value));
  }

  static String render(ExplainReport report) {
    StringBuilder out = new StringBuilder();
    out.append("explain ")
        .append(shown(report.mapping()))
        .append(" for applicationSetName '")
        .append(shown(report.applicationSetName()))
        .append("'\n");
    out.append("input: ").append(compact(report.input())).append("\n\n");

    out.append("upstream calls: ")
        .append(report.calls().size() + report.callsOmitted())
        .append(
            report.callsOmitted() > 0
                ? String.format(Locale.ROOT, ", the first %d listed", report.calls().size())
                : "")
        .append('\n');
    int stepWidth = "step".length();
    for (ExplainReport.Call call : report.calls()) {
      stepWidth = Math.max(stepWidth, shown(call.step()).length());
    }
    if (!report.calls().isEmpty()) {
      out.append(
          String.format(
              Locale.ROOT, "  %-" + stepWidth + "s  page  status  time      call%n", "step"));
    }
    for (ExplainReport.Call call : report.calls()) {
      String status = call.status() == null ? "failed" : String.valueOf(call.status());
      out.append(
          String.format(
              Locale.ROOT,
              "  %-" + stepWidth + "s  %4d  %-6s  %-8s  %s %s%s%n",
              shown(call.step()),
              call.page(),
              status,
              String.format(Locale.ROOT, "%.1fms", call.durationMillis()),
              shown(call.method()),
              shown(call.url()),
              call.cache() != null
                  ? "  (" + cacheNote(call.cache()) + ")"
                  : call.shared() ? "  (shared: answered by an identical call)" : ""));
      if (call.error() != null) {
        out.append("  ")
            .append(" ".repeat(stepWidth))
            .append("  error: ")
            .append(shown(call.error()))
            .append('\n');
      }
    }

    out.append("\nrows after each stage (a row is numbered by its place in the list, from 0):\n");
    int stageWidth = 0;
    for (ExplainReport.Stage stage : report.stages()) {
      stageWidth = Math.max(stageWidth, shown(stage.name()).length());
    }
    for (ExplainReport.Stage stage : report.stages()) {
      out.append(
          String.format(
              Locale.ROOT,
              "  %-" + stageWidth + "s  %s%n",
              shown(stage.name()),
              stage.rows() == null ? "(did not finish)" : stage.rows()));
      for (ExplainReport.Drop drop : stage.dropped()) {
        out.append("      dropped row ")
            .append(drop.row())
            .append(drop.label() == null ? "" : " (" + shown(drop.label()) + ")")
            .append(": ")
            .append(shown(drop.reason()))
            .append('\n');
      }
      for (ExplainReport.MoreDrops more : stage.more()) {
        out.append(
                String.format(
                    Locale.ROOT,
                    "      ... and %,d more row%s dropped",
                    more.rows(),
                    more.rows() == 1 ? "" : "s"))
            .append(more.reason() == null ? " for other reasons" : ": " + shown(more.reason()))
            .append('\n');
      }
    }

    out.append("\nparameters: ")
        .append(Plural.of(report.rows().size() + report.rowsOmitted(), "row"))
        .append(
            report.rowsOmitted() > 0
                ? String.format(
                    Locale.ROOT, ", the first %d listed (all in the answer)", report.rows().size())
                : "")
        .append('\n');
    for (ExplainReport.RowParameters row : report.rows()) {
      out.append("  row ").append(row.row()).append(row.element()).append(":\n");
      row.parameters()
          .forEach(
              (key, value) ->
                  out.append("    ")
                      .append(shown(key))
                      .append(" = ")
                      .append(compact(value))
                      .append('\n'));
    }

    out.append("\ngetparams would answer ")
        .append(report.answer().status())
        .append(": ")
        .append(compact(report.answer().body()))
        .append('\n');
    return out.toString();
  }

  private static String cacheNote(String cache) {
    return switch (cache) {
      case "hit" -> "cache hit: no upstream call";
      case "miss" -> "cache miss: fetched and cached";
      case "revalidated" -> "cache revalidated: the upstream answered 304";
      case "coalesced" -> "coalesced: answered by an identical call of another getparams";
      default -> cache.startsWith("stale") ? "cache " + cache : cache;
    };
  }
}
