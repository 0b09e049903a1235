package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.config.MappingSources;
import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.replay.MappingTestRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code appset-mapper diff}, offline over {@code --replay}: the catalogue's and the sample's own
 * recorded inputs, a mapping against itself, a tightened filter, a renamed parameter, the gates,
 * the three formats, and what the output never shows.
 */
class DiffCommandTest {
  private static final Path PULLS = Path.of("mappings/github-pulls.yaml");
  private static final Path PULLS_TEST = Path.of("mappings/github-pulls.test.yaml");

  /** Every mapping file of mappings/ and samples/ that has a test file beside it. */
  private static List<Path> mappingsWithTests() throws Exception {
    List<Path> out = new ArrayList<>();
    for (String root : List.of("mappings", "samples")) {
      try (Stream<Path> walk = Files.walk(Path.of(root))) {
        walk.filter(p -> MappingSources.isMappingFile(p) && Files.isRegularFile(p))
            .filter(p -> Files.isRegularFile(MappingTestRun.testFileFor(p)))
            .sorted()
            .forEach(out::add);
      }
    }
    return out;
  }

  @Test
  void everyShippedMappingAgainstItselfIsNoChange() throws Exception {
    List<Path> mappings = mappingsWithTests();
    assertThat(mappings).hasSizeGreaterThan(10);
    for (Path mapping : mappings) {
      Path test = MappingTestRun.testFileFor(mapping);
      CliTest.Result result =
          CliTest.run(
              "diff",
              mapping.toString(),
              mapping.toString(),
              "--replay",
              test.toString(),
              "--format",
              "json");
      assertThat(result.exit()).as(mapping + "\n" + result.out() + result.err()).isZero();
      Map<?, ?> json = (Map<?, ?>) JsonCodec.read(result.out());
      assertThat(json.get("changed")).isEqualTo(false);
      Map<?, ?> counts = (Map<?, ?>) json.get("counts");
      assertThat(((Number) counts.get("inputs")).intValue()).as(mapping.toString()).isPositive();
    }
  }

  @Test
  void theCatalogueFolderAgainstItselfIsNoChange() {
    CliTest.Result result = CliTest.run("diff", "mappings", "mappings", "--replay", "mappings");
    assertThat(result.exit()).as(result.out() + result.err()).isZero();
    assertThat(result.out()).endsWith("no change\n").doesNotContain("no input");
  }

  private static Path edited(Path dir, String name, String from, String to) throws Exception {
    String text = Files.readString(PULLS);
    assertThat(text).contains(from);
    Path out = dir.resolve(name);
    Files.writeString(out, text.replace(from, to));
    return out;
  }

  @Test
  void aTightenedFilterReportsExactlyTheRemovedRows(@TempDir Path dir) throws Exception {
    Path keyed =
        edited(dir, "old.yaml", "sortBy: item.number\n", "sortBy: item.number\nkey: number\n");
    Path tightened =
        edited(dir, "new.yaml", "sortBy: item.number\n", "sortBy: item.number\nkey: number\n");
    Files.writeString(
        tightened,
        Files.readString(tightened)
            .replace(
                "filter: \"input.labels.isEmpty() or item.labels.![name].containsAll(input.labels)\"",
                "filter: \"(input.labels.isEmpty() or item.labels.![name].containsAll(input.labels))"
                    + " and item.number % 2 == 0\""));
    CliTest.Result result =
        CliTest.run(
            "diff",
            keyed.toString(),
            tightened.toString(),
            "--replay",
            PULLS_TEST.toString(),
            "--format",
            "json");
    assertThat(result.exit()).as(result.out() + result.err()).isEqualTo(1);
    Map<?, ?> json = (Map<?, ?>) JsonCodec.read(result.out());
    Map<?, ?> mapping = (Map<?, ?>) ((List<?>) json.get("mappings")).get(0);
    for (Object one : (List<?>) mapping.get("inputs")) {
      Map<?, ?> input = (Map<?, ?>) one;
      Map<?, ?> before = (Map<?, ?>) input.get("before");
      if (before.get("rows") == null) {
        continue;
      }
      List<?> removed = (List<?>) input.get("removed");
      // Exactly the odd pull requests, nothing added or changed.
      assertThat(removed)
          .allSatisfy(
              row ->
                  assertThat(Integer.parseInt((String) ((Map<?, ?>) row).get("number")) % 2)
                      .isEqualTo(1));
      assertThat((List<?>) input.get("added")).isEmpty();
      assertThat((List<?>) input.get("changedRows")).isEmpty();
      int after = ((Number) ((Map<?, ?>) input.get("after")).get("rows")).intValue();
      assertThat(((Number) before.get("rows")).intValue()).isEqualTo(after + removed.size());
    }
    assertThat(((Number) ((Map<?, ?>) json.get("counts")).get("removed")).intValue()).isPositive();
  }

  @Test
  void aRenamedParameterReportsChangesParameterByParameter(@TempDir Path dir) throws Exception {
    Path old =
        edited(dir, "old.yaml", "sortBy: item.number\n", "sortBy: item.number\nkey: number\n");
    Path renamed =
        edited(dir, "new.yaml", "sortBy: item.number\n", "sortBy: item.number\nkey: number\n");
    Files.writeString(
        renamed, Files.readString(renamed).replace("  author: \"#default", "  user: \"#default"));
    CliTest.Result result =
        CliTest.run("diff", old.toString(), renamed.toString(), "--replay", PULLS_TEST.toString());
    assertThat(result.exit()).as(result.out() + result.err()).isEqualTo(1);
    assertThat(result.out())
        .contains("author: ")
        .contains(" -> (absent)")
        .contains("user: (absent) -> ")
        .contains(" 0 added, 0 removed, ");
  }

  /** old.yaml keyed by number, new.yaml keyed too with {@code edit} applied. */
  private static Path[] pair(Path dir, java.util.function.UnaryOperator<String> edit)
      throws Exception {
    Files.createDirectories(dir);
    Path old =
        edited(dir, "old.yaml", "sortBy: item.number\n", "sortBy: item.number\nkey: number\n");
    Path neu = dir.resolve("new.yaml");
    Files.writeString(neu, edit.apply(Files.readString(old)));
    return new Path[] {old, neu};
  }

  private static String tighten(String text) {
    return text.replace(
        "filter: \"input.labels.isEmpty() or item.labels.![name].containsAll(input.labels)\"",
        "filter: \"(input.labels.isEmpty() or item.labels.![name].containsAll(input.labels))"
            + " and item.number % 2 == 0\"");
  }

  private static String renameAuthor(String text) {
    return text.replace("  author: \"#default", "  user: \"#default");
  }

  @Test
  void theGatesTripOnlyOnVanishingApplications(@TempDir Path dir) throws Exception {
    Path[] tightened = pair(dir.resolve("t"), DiffCommandTest::tighten);
    Path[] renamed = pair(dir.resolve("r"), DiffCommandTest::renameAuthor);
    String replay = PULLS_TEST.toString();
    CliTest.Result removed =
        CliTest.run(
            "diff",
            tightened[0].toString(),
            tightened[1].toString(),
            "--replay",
            replay,
            "--fail-on",
            "removed");
    assertThat(removed.exit()).as(removed.err()).isEqualTo(1);
    assertThat(removed.err())
        .contains("gate: github-pulls ")
        .containsPattern(": [0-9]+ rows? removed");
    CliTest.Result changedOnly =
        CliTest.run(
            "diff",
            renamed[0].toString(),
            renamed[1].toString(),
            "--replay",
            replay,
            "--fail-on",
            "removed");
    assertThat(changedOnly.exit()).as(changedOnly.err()).isZero();
    assertThat(changedOnly.out()).contains("changes");
    assertThat(
            CliTest.run(
                    "diff",
                    tightened[0].toString(),
                    tightened[1].toString(),
                    "--replay",
                    replay,
                    "--max-removed",
                    "100%")
                .exit())
        .isZero();
    CliTest.Result overTen =
        CliTest.run(
            "diff",
            tightened[0].toString(),
            tightened[1].toString(),
            "--replay",
            replay,
            "--max-removed",
            "10%");
    assertThat(overTen.exit()).isEqualTo(1);
    assertThat(overTen.err()).contains("over 10%");
    // Without a key a removed row cannot be told from a changed one.
    CliTest.Result keyless =
        CliTest.run(
            "diff", PULLS.toString(), PULLS.toString(), "--replay", replay, "--fail-on", "removed");
    assertThat(keyless.exit()).isEqualTo(2);
    assertThat(keyless.err()).contains("--fail-on removed needs a key").contains("github-pulls");
    assertThat(
            CliTest.run("diff", PULLS.toString(), PULLS.toString(), "--max-removed", "ten").exit())
        .isEqualTo(2);
  }

  @Test
  void aSideThatDoesNotLoadOrAReplayThatCannotBeReadIsExit2(@TempDir Path dir) throws Exception {
    Path broken = dir.resolve("broken.yaml");
    Files.writeString(broken, "name: github-pulls\nparameters: {n: \"'1'\"}\nfiltr: x\n");
    CliTest.Result result =
        CliTest.run("diff", PULLS.toString(), broken.toString(), "--replay", PULLS_TEST.toString());
    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err()).contains("does not load").contains("unknown key 'filtr'");
    CliTest.Result noFile =
        CliTest.run(
            "diff",
            PULLS.toString(),
            PULLS.toString(),
            "--replay",
            dir.resolve("none.test.yaml").toString());
    assertThat(noFile.exit()).isEqualTo(2);
    CliTest.Result nothing = CliTest.run("diff", PULLS.toString(), PULLS.toString());
    assertThat(nothing.exit()).isEqualTo(2);
    assertThat(nothing.err()).contains("nothing was compared");
  }

  @Test
  void addedRemovedAndRenamedMappingsAreReportedAsSuch(@TempDir Path dir) throws Exception {
    String hello = "name: %s\nparameters: {greeting: \"'hello'\"}\n";
    Path old = Files.createDirectories(dir.resolve("old"));
    Path neu = Files.createDirectories(dir.resolve("new"));
    Files.writeString(old.resolve("a.yaml"), hello.formatted("a"));
    Files.writeString(old.resolve("b.yaml"), hello.formatted("b"));
    Files.writeString(neu.resolve("a.yaml"), hello.formatted("a-two"));
    Files.writeString(neu.resolve("c.yaml"), hello.formatted("c"));
    CliTest.Result result =
        CliTest.run(
            "diff", old.toString(), neu.toString(), "--input-json", "{}", "--format", "json");
    assertThat(result.exit()).as(result.err()).isEqualTo(1);
    Map<?, ?> json = (Map<?, ?>) JsonCodec.read(result.out());
    List<?> mappings = (List<?>) json.get("mappings");
    assertThat(mappings)
        .extracting(m -> ((Map<?, ?>) m).get("name") + ":" + ((Map<?, ?>) m).get("presence"))
        .containsExactly("a-two:renamed", "b:removed", "c:added");
    Map<?, ?> renamed = (Map<?, ?>) mappings.get(0);
    assertThat(renamed.get("previousName")).isEqualTo("a");
    // Its rows are the same, but /mappings/a/... answers 404 after the change: a change (it was
    // "no change", exit 0, with nothing else changed; an outside tester's find).
    assertThat(renamed.get("changed")).isEqualTo(true);
    Files.delete(old.resolve("b.yaml"));
    Files.delete(neu.resolve("c.yaml"));
    CliTest.Result onlyRenamed =
        CliTest.run("diff", old.toString(), neu.toString(), "--input-json", "{}");
    assertThat(onlyRenamed.exit()).as(onlyRenamed.out()).isEqualTo(1);
    assertThat(onlyRenamed.out()).contains("renamed from a").contains("changes");
  }

  /**
   * A 2 MiB input is its own label: every output (text, Markdown, JSON, the gate's lines) cuts it
   * through the one shared cut (Printable.cut, after the redactor), never prints it whole.
   */
  @Test
  void aHugeInputLabelIsCutInEveryOutput(@TempDir Path dir) throws Exception {
    Path old = dir.resolve("old.yaml");
    Path neu = dir.resolve("new.yaml");
    Files.writeString(
        old,
        "name: a\ninput: {x: {required: true}}\nkey: greeting\nparameters: {greeting: \"'hello'\"}\n");
    Files.writeString(
        neu,
        "name: a\ninput: {x: {required: true}}\nkey: greeting\nfilter: \"false\"\nparameters: {greeting: \"'hello'\"}\n");
    String input = "{\"x\":\"" + "y".repeat(2 * 1024 * 1024) + "\"}";
    for (String format : new String[] {"text", "markdown", "json"}) {
      CliTest.Result result =
          CliTest.run(
              "diff",
              old.toString(),
              neu.toString(),
              "--input-json",
              input,
              "--format",
              format,
              "--fail-on",
              "removed");
      assertThat(result.exit()).as(format + ": " + result.err()).isEqualTo(1);
      assertThat(result.out().length() + result.err().length())
          .as(format + " prints the label cut")
          .isLessThan(4000);
      assertThat(result.out()).as(format).contains("yyyy...");
      assertThat(result.err()).contains("yyyy...");
    }
  }

  @Test
  void eachUpstreamCallIsMadeOnceForBothSides(@TempDir Path dir) throws Exception {
    try (io.github.appsetmapper.testing.StubUpstream stub =
        new io.github.appsetmapper.testing.StubUpstream()) {
      stub.on(
          "GET /rows",
          io.github.appsetmapper.testing.StubUpstream.Reply.json(
              200, "[{\"id\":1,\"t\":\"a\"},{\"id\":2,\"t\":\"b\"}]"));
      String mapping =
          "name: rows\nkey: id\nvars: {up: {default: \"%s\"}}\nlist:\n  request: {url: \"#{vars.up}/rows\"}\n  items: \"$[*]\"\nparameters:\n  id: item.id\n  t: %s\n";
      Path old = dir.resolve("old.yaml");
      Path neu = dir.resolve("new.yaml");
      Files.writeString(old, mapping.formatted(stub.url(), "item.t"));
      Files.writeString(neu, mapping.formatted(stub.url(), "item.t.toUpperCase()"));
      CliTest.Result result =
          CliTest.run("diff", old.toString(), neu.toString(), "--input-json", "{}");
      assertThat(result.exit()).as(result.out() + result.err()).isEqualTo(1);
      assertThat(stub.calls()).isEqualTo(1);
      assertThat(result.out())
          .contains("~ {\"id\":\"1\"}")
          .contains("t: \"a\" -> \"A\"")
          .contains("0 added, 0 removed, 2 changed");
    }
  }

  @Test
  void aMappingThatRequiresNoInputIsComparedOnTheEmptyInput(@TempDir Path dir) throws Exception {
    try (io.github.appsetmapper.testing.StubUpstream stub =
        new io.github.appsetmapper.testing.StubUpstream()) {
      stub.on(
          "GET /rows",
          io.github.appsetmapper.testing.StubUpstream.Reply.json(200, "[{\"id\":1,\"t\":\"a\"}]"));
      String mapping =
          "name: rows\nkey: id\nvars: {up: {default: \"%s\"}}\n%slist:\n  request: {url: \"#{vars.up}/rows\"}\n  items: \"$[*]\"\nparameters:\n  id: item.id\n  t: %s\n";
      Path old = dir.resolve("old.yaml");
      Path neu = dir.resolve("new.yaml");
      String optional = "input:\n  env: {type: string, default: prod}\n";
      Files.writeString(old, mapping.formatted(stub.url(), optional, "item.t"));
      Files.writeString(neu, mapping.formatted(stub.url(), optional, "item.t.toUpperCase()"));
      CliTest.Result result = CliTest.run("diff", old.toString(), neu.toString());
      assertThat(result.exit()).as(result.out() + result.err()).isEqualTo(1);
      assertThat(result.out())
          .contains("t: \"a\" -> \"A\"")
          .contains("0 added, 0 removed, 1 changed");
      assertThat(stub.calls()).isEqualTo(1);

      // A required input has no stand-in: still nothing compared, and said so.
      String required = "input:\n  env: {type: string, required: true}\n";
      Files.writeString(old, mapping.formatted(stub.url(), required, "item.t"));
      Files.writeString(neu, mapping.formatted(stub.url(), required, "item.t.toUpperCase()"));
      CliTest.Result refused = CliTest.run("diff", old.toString(), neu.toString());
      assertThat(refused.exit()).isEqualTo(2);
      assertThat(refused.err()).contains("nothing was compared");
      assertThat(stub.calls()).isEqualTo(1);
    }
  }

  @Test
  void aSideThatFailsIsAChangeWithItsReason(@TempDir Path dir) throws Exception {
    Path[] pair =
        pair(
            dir,
            text ->
                text.replace(
                    "/repos/#{input.owner}/#{input.repo}/pulls",
                    "/repos/#{input.owner}/#{input.repo}/pull"));
    CliTest.Result result =
        CliTest.run(
            "diff", pair[0].toString(), pair[1].toString(), "--replay", PULLS_TEST.toString());
    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.out())
        .contains(
            "5 rows -> error 502: mapping 'github-pulls': list GET https://api.github.com/repos/northwind-labs/checkout-service/pull?")
        .contains("no recorded exchange matches");
  }

  @Test
  void secretsNeverReachTheOutputAndMarkdownValuesAreData(@TempDir Path dir) throws Exception {
    // The test file's stand-in for the token, sent as input: an answer may echo it, the report not.
    for (String format : List.of("text", "json", "markdown")) {
      CliTest.Result result =
          CliTest.run(
              "diff",
              PULLS.toString(),
              PULLS.toString(),
              "--replay",
              PULLS_TEST.toString(),
              "--input",
              "owner=demo-github-token",
              "--input",
              "repo=checkout-service",
              "--format",
              format);
      assertThat(result.out() + result.err()).as(format).doesNotContain("demo-github-token");
    }
    io.github.appsetmapper.diff.RowDiff rows =
        io.github.appsetmapper.diff.RowDiff.of(
            List.of(),
            List.of(Map.of("title", "a | b <script>@team `x` [l](http://e)\n| x |")),
            List.of());
    io.github.appsetmapper.diff.DiffReport report =
        new io.github.appsetmapper.diff.DiffReport(
            "old",
            "new",
            List.of(
                new io.github.appsetmapper.diff.MappingDiff(
                    "m",
                    null,
                    io.github.appsetmapper.diff.MappingDiff.Presence.BOTH,
                    List.of(),
                    List.of(
                        new io.github.appsetmapper.diff.InputDiff(
                            "case | <b>",
                            "",
                            Map.of(),
                            io.github.appsetmapper.diff.Outcome.rows(List.of(Map.of("title", "x"))),
                            io.github.appsetmapper.diff.Outcome.rows(List.of()),
                            rows)),
                    null)));
    String markdown = io.github.appsetmapper.diff.MarkdownReport.render(report, s -> s, 10);
    assertThat(markdown)
        .doesNotContain("<script>")
        .doesNotContain("<b>")
        .doesNotContain("@team")
        .doesNotContain("`x`")
        .doesNotContain("[l](")
        .contains("&lt;script&gt;")
        .contains("&#124;");
    // No value ends a table row: every table line has the header's number of cells.
    markdown
        .lines()
        .filter(line -> line.startsWith("| "))
        .forEach(
            line -> assertThat(line.chars().filter(c -> c == '|').count()).as(line).isEqualTo(8));
    String text = io.github.appsetmapper.diff.TextReport.render(report, s -> s, 10);
    assertThat(text).doesNotContain("\n| x |").contains("\\n| x |");
  }
}
