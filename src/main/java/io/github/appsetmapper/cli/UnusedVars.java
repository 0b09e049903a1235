package io.github.appsetmapper.cli;

import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.compile.VarValues;
import io.github.appsetmapper.server.MappingRegistry;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code serve}'s {@code --var}s that no loaded mapping declares: a warning in the log when the set
 * changes and in {@code GET /mappings}, not a refusal, since a reload may bring the mapping that
 * declares one.
 */
final class UnusedVars {
  private static final Logger LOG = LoggerFactory.getLogger("appset_mapper.serve");

  private final VarValues given;
  private List<String> last = List.of();

  UnusedVars(VarValues given) {
    this.given = given;
  }

  /** {@code registry} with a warning per unused var; logs the ones that were not unused before. */
  synchronized MappingRegistry note(MappingRegistry registry) {
    Map<String, Set<String>> declared = new TreeMap<>();
    for (String name : registry.names()) {
      CompiledMapping mapping = registry.find(name).orElseThrow();
      declared.put(name, mapping.vars().keySet());
    }
    List<String> warnings =
        given.unknown(declared).stream()
            .map(var -> VarValues.unknownMessage(var, declared) + "; it is not used")
            .toList();
    warnings.stream().filter(w -> !last.contains(w)).forEach(LOG::warn);
    last = warnings;
    return registry.withWarnings(warnings);
  }
}
