package io.github.appsetmapper.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.expr.Scope.Name;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The base scope is made as one map, not a copy per name: what an expression sees of it (names,
 * values, and the order {@code #root} iterates them in) is what the copies gave.
 */
class ScopesTest {

  @Test
  void theBaseScopeIsWhatBindingOneNameAtATimeGave() {
    Map<String, Object> input = Map.of("name", "val1");
    Map<String, String> vars = Map.of("up", "http://x");
    Scope base = Scopes.base(input, "bench", vars);
    Scope byName =
        Scope.empty()
            .with(Name.INPUT, input)
            .with(Name.APPLICATION_SET_NAME, "bench")
            .with(Name.VARS, vars);
    assertThat(base.root()).isEqualTo(byName.root());
    assertThat(List.copyOf(base.names())).containsExactlyElementsOf(List.copyOf(byName.names()));
    Scope row = base.with(Name.ITEM, "x");
    Scope rowByName = byName.with(Name.ITEM, "x");
    assertThat(List.copyOf(row.names())).containsExactlyElementsOf(List.copyOf(rowByName.names()));
    assertThat(base.unavailable()).isEmpty();
  }
}
