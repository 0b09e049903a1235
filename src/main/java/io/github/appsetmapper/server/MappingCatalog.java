package io.github.appsetmapper.server;

import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.compile.InputRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code GET /mappings}: what is loaded, where it is served, what it takes. */
final class MappingCatalog {
  private MappingCatalog() {}

  static Map<String, Object> describe(MappingRegistry registry) {
    return describe(registry, null);
  }

  /** With, for mappings that set {@code maxDrop}, how many baselines the guard holds. */
  static Map<String, Object> describe(
      MappingRegistry registry, io.github.appsetmapper.engine.DropGuard guard) {
    List<Map<String, Object>> mappings = new ArrayList<>();
    for (String name : registry.names()) {
      CompiledMapping mapping = registry.find(name).orElseThrow();
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("name", name);
      entry.put("route", "/mappings/" + name + "/api/v1/getparams.execute");
      entry.put("default", name.equals(registry.defaultName()));
      entry.put("source", mapping.sourceFile());
      entry.put("description", mapping.description());
      Map<String, Object> inputs = new LinkedHashMap<>();
      for (InputRule rule : mapping.inputs().values()) {
        Map<String, Object> input = new LinkedHashMap<>();
        input.put("type", rule.type().toString());
        input.put("required", rule.required());
        if (rule.defaultValue() != null) {
          input.put("default", rule.defaultValue());
        }
        if (rule.description() != null) {
          input.put("description", rule.description());
        }
        inputs.put(rule.name(), input);
      }
      entry.put("inputs", inputs);
      if (mapping.maxDrop() != null) {
        Map<String, Object> drop = new LinkedHashMap<>();
        drop.put("maxDrop", mapping.maxDrop().toString());
        drop.put("baselines", guard == null ? 0 : guard.baselines(name));
        drop.put("reset", "/mappings/" + name + "/guard/reset");
        entry.put("guard", drop);
      }
      MappingStatus status = registry.status().get(name);
      entry.put("state", status == null || status.current() ? "loaded" : "stale");
      if (status != null && status.loadedAt() != null) {
        entry.put("loadedAt", status.loadedAt().toString());
      }
      if (status != null && status.lastError() != null) {
        entry.put("lastError", status.lastError());
      }
      mappings.add(entry);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("mappings", mappings);
    out.put("failures", registry.failures());
    if (!registry.warnings().isEmpty()) {
      out.put("warnings", registry.warnings());
    }
    return out;
  }
}
