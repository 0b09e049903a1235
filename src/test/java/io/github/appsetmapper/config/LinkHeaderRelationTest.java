package io.github.appsetmapper.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code linkHeader} names the relation of the next page's link. {@code linkHeader: true} (or
 * {@code yes}, {@code 1}, {@code nxt}) loaded before, no link had that relation, and only page 1
 * was read: a listing cut short with a 200.
 */
class LinkHeaderRelationTest {
  private static String yaml(String rel) {
    return "name: m\nlist:\n  request: {url: \"https://api.example.com/a\"}\n  items: \"$[*]\"\n"
        + "  paginate: {linkHeader: "
        + rel
        + "}\nparameters:\n  x: item\n";
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"true", "yes", "1", "nxt", "\"nxt\"", "Next", "last", "prev", "\"\"", "' '"})
  void anythingButTheNextRelationIsRefused(String rel) {
    MappingException e =
        catchThrowableOfType(
            MappingException.class, () -> MappingParser.parse("m.yaml", yaml(rel)));
    assertThat(e).as("refused").isNotNull();
    List<String> problems = e.problems().stream().map(Problem::toString).toList();
    assertThat(problems).hasSize(1);
    assertThat(problems.get(0))
        .startsWith(
            "m.yaml:5:26 list.paginate.linkHeader: linkHeader takes the relation of the next"
                + " page's link: linkHeader: next (or an extension relation's absolute URI), not '");
  }

  @ParameterizedTest
  @ValueSource(strings = {"next", "\"next\"", "https://api.example.com/rels/next-page"})
  void nextOrAnExtensionRelationLoads(String rel) throws MappingException {
    assertThat(MappingParser.parse("m.yaml", yaml(rel))).hasSize(1);
    assertThat(MappingSchema.check("m.yaml", yaml(rel))).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"true", "1", "nxt", "Next"})
  void theSchemaRefusesItToo(String rel) {
    assertThat(MappingSchema.check("m.yaml", yaml(rel))).isNotEmpty();
  }
}
