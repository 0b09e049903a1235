package io.github.appsetmapper.cli;

import io.github.appsetmapper.diff.DiffPlain;
import io.github.appsetmapper.diff.DiffReport;
import io.github.appsetmapper.diff.MarkdownReport;
import io.github.appsetmapper.diff.TextReport;
import io.github.appsetmapper.json.JsonCodec;
import java.util.function.UnaryOperator;

/** {@code diff --format}: text for a terminal, JSON for tools, Markdown for a pull request. */
enum DiffFormat {
  TEXT,
  JSON,
  MARKDOWN;

  String render(DiffReport report, UnaryOperator<String> redact, int maxRows) {
    return switch (this) {
      case TEXT -> TextReport.render(report, redact, maxRows);
      case JSON -> JsonCodec.writePretty(DiffPlain.report(report, redact, maxRows), false) + "\n";
      case MARKDOWN -> MarkdownReport.render(report, redact, maxRows);
    };
  }
}
