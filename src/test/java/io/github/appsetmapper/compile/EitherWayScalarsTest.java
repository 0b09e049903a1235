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
 * A plain {@code no}, {@code yes}, {@code on} or {@code off} in a mapping's data is refused at load
 * (YAML 1.1 reads a boolean, YAML 1.2 text: one reader is wrong, silently), and an input's default
 * must be of its declared type (an outside tester's HIGH: {@code type: boolean, default: no} became
 * the text "no", a filter on it matched no row, and the answer was an empty 200).
 */
class EitherWayScalarsTest {
  @TempDir Path dir;

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "input: {draft: {type: boolean, default: no}} | m.yaml:3:41 input.draft.default: 'no' is a"
            + " boolean in YAML 1.1 and text in YAML 1.2: write false for the boolean, or '\"no\"'"
            + " in quotes for the text",
        "input: {draft: {type: boolean, default: 'no'}} | m.yaml:3:16 input.draft: default 'no' is"
            + " not true or false, as 'type: boolean' says: a getparams without this input would"
            + " read it as it is",
        "input: {n: {type: number, default: 'x'}} | m.yaml:3:12 input.n: default 'x' is not a"
            + " number, as 'type: number' says: a getparams without this input would read it as it"
            + " is"
      })
  void isRefusedWithTheFix(String line, String expected) throws Exception {
    Path file = dir.resolve("m.yaml");
    Files.writeString(file, "name: m\nparameters: {x: \"'a'\"}\n" + line + "\n");
    MappingLoader.Result result =
        MappingLoader.load(List.of(file), new CompileOptions(Map.of(), n -> null, new Redactor()));
    assertThat(result.mappings()).isEmpty();
    assertThat(result.problems()).extracting(Object::toString).anyMatch(p -> p.endsWith(expected));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "input: {draft: {type: boolean, default: false}}",
        "input: {state: {default: 'on'}}",
        "input: {n: {type: number, default: 3}}",
        "vars: {flag: {default: On}}",
      })
  void theUnambiguousFormsLoad(String line) throws Exception {
    Path file = dir.resolve("m.yaml");
    Files.writeString(file, "name: m\nparameters: {x: \"'a'\"}\n" + line + "\n");
    MappingLoader.Result result =
        MappingLoader.load(List.of(file), new CompileOptions(Map.of(), n -> null, new Redactor()));
    assertThat(result.problems()).isEmpty();
    assertThat(result.mappings()).hasSize(1);
  }
}
