package io.github.appsetmapper.explain;

import java.util.Locale;

/** The report as text for a terminal: calls as a table, stages with their drops, rows, answer. */
final class ExplainText {
  private ExplainText() {}

  static String render(ExplainReport report) {
    StringBuilder out = new StringBuilder();
    out.append("explain ")
        .append(report.mapping())
        .append(" for applicationSetName '")
        .append(report.applicationSetName())
        .append("'\n");
    out.append("input: ").append(ExplainFormat.compact(report.input())).append("\n\n");

    out.append("upstream calls: ")
        .append(report.calls().size() + report.callsOmitted())
        .append(
            report.callsOmitted() > 0
                ? String.format(Locale.ROOT, ", the first %d listed", report.calls().size())
                : "")
        .append('\n');
    int stepWidth = "step".length();
    for (ExplainReport.Call call : report.calls()) {
      stepWidth = Math.max(stepWidth, call.step().length());
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
              call.step(),
              call.page(),
              status,
              String.format(Locale.ROOT, "%.1fms", call.durationMillis()),
              call.method(),
              call.url(),
              call.cache() != null
                  ? "  (" + cacheNote(call.cache()) + ")"
                  : call.shared() ? "  (shared: answered by an identical call)" : ""));
      if (call.error() != null) {
        out.append("  ")
            .append(" ".repeat(stepWidth))
            .append("  error: ")
            .append(call.error())
            .append('\n');
      }
    }

    out.append("\nrows after each stage (a row is numbered by its place in the list, from 0):\n");
    int stageWidth = 0;
    for (ExplainReport.Stage stage : report.stages()) {
      stageWidth = Math.max(stageWidth, stage.name().length());
    }
    for (ExplainReport.Stage stage : report.stages()) {
      out.append(
          String.format(
              Locale.ROOT,
              "  %-" + stageWidth + "s  %s%n",
              stage.name(),
              stage.rows() == null ? "(did not finish)" : stage.rows()));
      for (ExplainReport.Drop drop : stage.dropped()) {
        out.append("      dropped row ")
            .append(drop.row())
            .append(drop.label() == null ? "" : " (" + drop.label() + ")")
            .append(": ")
            .append(drop.reason())
            .append('\n');
      }
      for (ExplainReport.MoreDrops more : stage.more()) {
        out.append(
                String.format(
                    Locale.ROOT,
                    "      ... and %,d more row%s dropped",
                    more.rows(),
                    more.rows() == 1 ? "" : "s"))
            .append(more.reason() == null ? " for other reasons" : ": " + more.reason())
            .append('\n');
      }
    }

    out.append("\nparameters: ")
        .append(report.rows().size() + report.rowsOmitted())
        .append(" row(s)")
        .append(
            report.rowsOmitted() > 0
                ? String.format(
                    Locale.ROOT, ", the first %d listed (all in the answer)", report.rows().size())
                : "")
        .append('\n');
    for (ExplainReport.RowParameters row : report.rows()) {
      out.append("  row ").append(row.row()).append(":\n");
      row.parameters()
          .forEach(
              (key, value) ->
                  out.append("    ")
                      .append(key)
                      .append(" = ")
                      .append(ExplainFormat.compact(value))
                      .append('\n'));
    }

    out.append("\ngetparams would answer ")
        .append(report.answer().status())
        .append(": ")
        .append(ExplainFormat.compact(report.answer().body()))
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
