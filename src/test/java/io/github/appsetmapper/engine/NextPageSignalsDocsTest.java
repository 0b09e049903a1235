package io.github.appsetmapper.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The reference's list of the next-page signals is the table the engine reads ({@link
 * NextPageSignals#TABLE}, {@link NextPageSignals#HEADERS}), row for row: a signal added to one and
 * not the other fails here, with the rows the reference should hold.
 */
class NextPageSignalsDocsTest {
  private static final String START = "<!-- next-page-signals: generated from NextPageSignals -->";
  private static final String END = "<!-- /next-page-signals -->";

  static List<String> rows() {
    List<String> rows = new ArrayList<>();
    rows.add("| where | names a next page when | sent by | read by |");
    rows.add("| --- | --- | --- | --- |");
    for (NextPageSignals.Signal signal : NextPageSignals.TABLE) {
      String when =
          switch (signal.test()) {
            case URL -> "a URL reference (see below)";
            case TEXT -> "a string, not empty";
            case TRUE -> "`true`, `\"true\"` or `1`";
            case FALSE -> "`false`, `\"false\"` or `0`";
            case FALSE_WORD ->
                "`false` or `\"false\"` (not a number: `\"last\": 5` is a page number)";
            case NUMBER -> "a page number (a whole number from 1, or one as a string: `\"2\"`)";
          };
      String mode =
          signal.mode() == null
              ? "none (see below)"
              : "`paginate: {"
                  + (signal.connection()
                      ? signal.mode().formatted("$.<connection>", ".<connection>")
                      : signal.mode())
                  + "}`";
      rows.add(
          "| `" + signal.path() + "` | " + when + " | " + signal.vendor() + " | " + mode + " |");
    }
    for (NextPageSignals.HeaderSignal header : NextPageSignals.HEADERS) {
      rows.add(
          "| header `"
              + header.name()
              + "` | a string, not empty | "
              + header.vendor()
              + " | none (see below) |");
    }
    return rows;
  }

  @Test
  void theReferenceListsEverySignalTheEngineReads() throws IOException {
    String docs = Files.readString(Path.of("docs/mapping-reference.md"));
    int start = docs.indexOf(START);
    int end = docs.indexOf(END);
    assertThat(start).as("the reference's marker " + START).isNotNegative();
    List<String> listed =
        docs.substring(start + START.length(), end).strip().lines().map(String::strip).toList();
    assertThat(listed)
        .as(
            "docs/mapping-reference.md between the markers should read:\n"
                + String.join("\n", rows()))
        .isEqualTo(rows());
  }
}
