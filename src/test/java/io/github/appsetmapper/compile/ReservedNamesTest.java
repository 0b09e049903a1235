package io.github.appsetmapper.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.appsetmapper.config.MappingException;
import io.github.appsetmapper.config.MappingParser;
import io.github.appsetmapper.config.Problem;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.secret.Redactor;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The scope's names are listed once (Scope.Name): the compiler refuses each as an enrich name, and
 * the sandbox refuses each name only the scope has inside a projection, where it would read the
 * element.
 */
class ReservedNamesTest {
  private static List<String> problems(String yaml) {
    MappingException e =
        catchThrowableOfType(
            MappingException.class,
            () ->
                MappingCompiler.compile(
                    MappingParser.parse("m.yaml", yaml).get(0),
                    new CompileOptions(Map.of(), n -> null, new Redactor())));
    assertThat(e).as("refused").isNotNull();
    return e.problems().stream().map(Problem::toString).toList();
  }

  @Test
  void theReservedNamesAreTheScopesNames() {
    assertThat(Scope.Name.RESERVED)
        .containsExactlyInAnyOrder(
            "input", "applicationSetName", "item", "vars", "secret", "response", "page");
  }

  @TestFactory
  Stream<DynamicTest> noEnrichStepTakesAReservedName() {
    return Arrays.stream(Scope.Name.values())
        .map(
            name ->
                DynamicTest.dynamicTest(
                    name.word(),
                    () ->
                        assertThat(
                                problems(
                                    """
                                    name: m
                                    enrich:
                                      %s:
                                        request: {url: "https://api.example.com/x"}
                                    parameters: {x: "'y'"}
                                    """
                                        .formatted(name.word())))
                            .anyMatch(
                                p ->
                                    p.endsWith(
                                        "'"
                                            + name.word()
                                            + "' is a reserved name; choose another enrich"
                                            + " name"))));
  }

  @TestFactory
  Stream<DynamicTest> aNameOnlyTheScopeHasIsRefusedInsideAProjection() {
    return Arrays.stream(Scope.Name.values())
        .filter(Scope.Name::onlyInScope)
        .map(
            name ->
                DynamicTest.dynamicTest(
                    name.word(),
                    () ->
                        assertThat(
                                problems(
                                    """
                                    name: m
                                    list:
                                      request: {url: "https://api.example.com/x"}
                                      items: "$[*]"
                                    parameters: {x: "item.tags.![%s]"}
                                    """
                                        .formatted(name.word())))
                            .anyMatch(
                                p ->
                                    p.contains(
                                        "inside a projection or selection '"
                                            + name.word()
                                            + "' reads the element"))));
  }
}
