package io.github.appsetmapper.compile;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.secret.Redactor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A file's problems found while it is read (a {@code linkHeader: true}, an unknown key, a bad
 * duration) no longer hide those found when it compiles (an invalid expression, Go's syntax): the
 * loader says every problem of a file at once.
 */
class EveryProblemAtOnceTest {
  @TempDir Path dir;

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "paginate: {linkHeader: true} | m.yaml:5:26 list.paginate.linkHeader: linkHeader takes"
            + " the relation of the next page's link: linkHeader: next (or an extension"
            + " relation's absolute URI), not 'true'",
        "pagnate: {linkHeader: next} | m.yaml:5:3 list.pagnate: unknown key 'pagnate'; did you"
            + " mean 'paginate'?",
        "paginate: {linkHeader: next, maxPages: 0} | m.yaml:5:42 list.paginate.maxPages: must be"
            + " at least 1, not 0",
      })
  void aReadingProblemIsSaidWithTheCompilesProblems(String line, String first) throws Exception {
    Path file = dir.resolve("m.yaml");
    Files.writeString(
        file,
        "name: m\nlist:\n  request: {url: \"https://api.example.com/a\"}\n  items: \"$[*]\"\n"
            + "  "
            + line
            + "\nfilter: \"item.draft = false\"\nparameters:\n  x: \"{{ item.a }}\"\n");
    MappingLoader.Result result =
        MappingLoader.load(List.of(file), new CompileOptions(Map.of(), n -> null, new Redactor()));
    assertThat(result.mappings()).isEmpty();
    assertThat(result.problems())
        .extracting(p -> p.toString().replace(file.toString(), "m.yaml"))
        .containsExactly(
            first,
            "m.yaml:6:9 filter: assignment is not allowed (compare with ==) (in 'item.draft ="
                + " false')",
            "m.yaml:8:6 parameters.x: '{{ item.a }}' is Go template syntax, which SpEL reads as a"
                + " list in a list: appset-mapper templates are #{...}; in parameters (and every"
                + " expression field) write the bare expression: item.a");
  }
}
