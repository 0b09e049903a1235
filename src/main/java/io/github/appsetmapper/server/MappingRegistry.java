package io.github.appsetmapper.server;

import io.github.appsetmapper.compile.CompiledMapping;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The loaded mappings by name, immutable: a request takes one snapshot and a reload swaps the whole
 * registry. {@code defaultName} serves {@code POST /api/v1/getparams.execute}.
 */
public record MappingRegistry(Map<String, CompiledMapping> byName, String defaultName) {

  public MappingRegistry {
    byName = Map.copyOf(byName);
  }

  /** The default is the one named, or the only mapping when exactly one is loaded. */
  public static MappingRegistry of(List<CompiledMapping> mappings, String defaultName) {
    Map<String, CompiledMapping> byName = new TreeMap<>();
    mappings.forEach(m -> byName.put(m.name(), m));
    if (defaultName == null && byName.size() == 1) {
      defaultName = byName.keySet().iterator().next();
    }
    if (defaultName != null && !byName.containsKey(defaultName)) {
      throw new IllegalArgumentException(
          "--default-mapping '"
              + defaultName
              + "' is not loaded; loaded: "
              + String.join(", ", byName.keySet()));
    }
    return new MappingRegistry(byName, defaultName);
  }

  public Optional<CompiledMapping> find(String name) {
    return Optional.ofNullable(byName.get(name));
  }

  public Collection<String> names() {
    return new TreeMap<>(byName).keySet();
  }
}
