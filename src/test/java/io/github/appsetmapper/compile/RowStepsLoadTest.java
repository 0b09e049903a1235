package io.github.appsetmapper.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.appsetmapper.config.MappingException;
import io.github.appsetmapper.config.MappingParser;
import io.github.appsetmapper.config.Problem;
import io.github.appsetmapper.secret.Redactor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What {@code let}, {@code explode}, {@code label} and a literal {@code #semverMatches} constraint
 * refuse when the file loads, each with one line naming the field and the way out.
 */
class RowStepsLoadTest {
  private static final CompileOptions OPTIONS =
      new CompileOptions(Map.of(), name -> null, new Redactor());

  private static final String HEAD =
      """
      name: m
      list:
        request: {url: "https://h.example/items"}
        items: "$[*]"
      """;

  private static List<String> problems(String yaml) {
    MappingException e =
        catchThrowableOfType(
            MappingException.class,
            () -> MappingCompiler.compile(MappingParser.parse("m.yaml", yaml).get(0), OPTIONS));
    assertThat(e).as("the mapping should have been refused").isNotNull();
    return e.problems().stream().map(Problem::toString).toList();
  }

  private static CompiledMapping compiles(String yaml) throws MappingException {
    return MappingCompiler.compile(MappingParser.parse("m.yaml", yaml).get(0), OPTIONS);
  }

  @Test
  void anInvalidLiteralConstraintIsALoadError() {
    assertThat(problems(HEAD + "parameters: {ok: \"#semverMatches(item.v, '>=> 1')\"}\n"))
        .singleElement()
        .asString()
        .contains("parameters.ok")
        .contains("invalid constraint '>=> 1' in #semverMatches(...)");
  }

  @Test
  void aLetNamedLikeAnotherNameOfTheRowIsRefused() {
    assertThat(
            problems(
                HEAD
                    + "explode: {in: item.tags, as: tag}\n"
                    + "enrich:\n  health: {request: {url: \"https://h.example/h\"}}\n"
                    + "let: {item: \"1\", health: \"2\", tag: \"3\"}\n"
                    + "parameters: {a: item.name}\n"))
        .anySatisfy(p -> assertThat(p).contains("let 'item' is a reserved name"))
        .anySatisfy(p -> assertThat(p).contains("let 'health' is an enrich name"))
        .anySatisfy(p -> assertThat(p).contains("let 'tag' is explode's element"));
  }

  @Test
  void aLetReadsOnlyEarlierLetsAndALabelNothingEnrichMakes() {
    assertThat(
            problems(
                HEAD
                    + "enrich:\n  health: {request: {url: \"https://h.example/h\"}}\n"
                    + "let: {a: \"b + 1\", b: \"1\"}\n"
                    + "label: health.status\n"
                    + "parameters: {a: a}\n"))
        .anySatisfy(p -> assertThat(p).contains("let 'b' is defined later"))
        .anySatisfy(
            p ->
                assertThat(p)
                    .contains("label names the row from before enrich, so it cannot read enrich"));
  }

  @Test
  void anEnrichRequestReadsOnlyTheLetsThatExistBeforeIt() {
    assertThat(
            problems(
                HEAD
                    + "enrich:\n"
                    + "  first: {request: {url: \"https://h.example/a/#{late}\"}}\n"
                    + "  second: {request: {url: \"https://h.example/b/#{soon}\"}}\n"
                    + "let: {soon: \"first.id\", late: \"second.id\"}\n"
                    + "parameters: {a: late}\n"))
        .singleElement()
        .asString()
        .contains("let 'late' reads enrich.second, so it exists only after that step");
  }

  @Test
  void aFilterPartThatReadsALetRunsWhenTheLetExists() throws MappingException {
    CompiledMapping mapping =
        compiles(
            HEAD
                + "enrich:\n"
                + "  first: {request: {url: \"https://h.example/a\"}}\n"
                + "  second: {request: {url: \"https://h.example/b\"}}\n"
                + "let: {early: \"item.x\", late: \"first.id\", later: \"late + 1\"}\n"
                + "filter: \"early != null and later > 2 and second.ok\"\n"
                + "parameters: {a: early}\n");
    assertThat(mapping.filter().parts())
        .extracting(CompiledFilter.Part::needs)
        .containsExactly(0, 1, 2);
    assertThat(mapping.rowSteps().computedAfter(0))
        .extracting(RowSteps.Let::name)
        .containsExactly("early");
    assertThat(mapping.rowSteps().computedAfter(1))
        .extracting(RowSteps.Let::name)
        .containsExactly("late", "later");
  }

  @Test
  void anExplodeElementOrLetFromTheCallerNeverChoosesAHost() {
    assertThat(
            problems(
                """
                name: m
                input: {hosts: {type: list}}
                list:
                  request: {url: "https://h.example/items"}
                  items: "$[*]"
                explode: {in: input.hosts, as: host}
                let: {where: "input.hosts[0]"}
                enrich:
                  a: {request: {url: "https://#{host}/x"}}
                  b: {request: {url: "https://#{where}/x"}}
                parameters: {a: item.name}
                """))
        .hasSize(2)
        .allSatisfy(p -> assertThat(p).contains("host"));
  }
}
