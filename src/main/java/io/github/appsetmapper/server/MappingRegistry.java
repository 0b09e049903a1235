package io.github.appsetmapper.server;

import io.github.appsetmapper.compile.CompiledMapping;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The loaded mappings by name, immutable: a request takes one snapshot and a reload swaps the whole
 * registry. {@code defaultName} serves {@code POST /api/v1/getparams.execute}. {@code refusal},
 * when not null, is why no mapping is run at all (a {@code --replay} file that tests no mapping
 * served since a reload): each getparams and explain answers it as a 503.
 */
public record MappingRegistry(
    Map<String, CompiledMapping> byName,
    String defaultName,
    Map<String, MappingStatus> status,
    List<String> failures,
    List<String> warnings,
    String refusal) {

  public MappingRegistry {
    byName = Map.copyOf(byName);
    status = Map.copyOf(status);
    failures = List.copyOf(failures);
    warnings = List.copyOf(warnings);
  }

  /** The same mappings, with {@code warnings} for {@code GET /mappings} (an unused --var). */
  public MappingRegistry withWarnings(List<String> warnings) {
    return new MappingRegistry(byName, defaultName, status, failures, warnings, refusal);
  }

  /**
   * The same mappings, none of which is run: each getparams and explain answers {@code line} (a
   * 503), which {@code GET /mappings} lists among the failures.
   */
  public MappingRegistry refusing(String line) {
    List<String> withLine = new java.util.ArrayList<>(failures);
    withLine.add(line);
    return new MappingRegistry(byName, defaultName, status, withLine, warnings, line);
  }

  /** The default is the one named, or the only mapping when exactly one is loaded. */
  public static MappingRegistry of(List<CompiledMapping> mappings, String defaultName) {
    Map<String, MappingStatus> status = new TreeMap<>();
    Instant now = Instant.now();
    mappings.forEach(m -> status.put(m.name(), new MappingStatus(m.sourceFile(), now, null)));
    return of(mappings, defaultName, status, List.of());
  }

  /**
   * With each mapping's load status, and the load errors of files that serve nothing (the reload
   * keeps a failed file's previous mappings; a file that never loaded only has its error here).
   */
  public static MappingRegistry of(
      List<CompiledMapping> mappings,
      String defaultName,
      Map<String, MappingStatus> status,
      List<String> failures) {
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
    return new MappingRegistry(byName, defaultName, status, failures, List.of(), null);
  }

  /**
   * Files failing to load now: those that serve nothing (their errors) and those whose previous
   * version serves (mappings not current, counted once per file).
   */
  public int failingFiles() {
    java.util.Set<String> stale = new java.util.HashSet<>();
    status.values().stream().filter(s -> !s.current()).forEach(s -> stale.add(s.source()));
    return failures.size() + stale.size();
  }

  public Optional<CompiledMapping> find(String name) {
    return Optional.ofNullable(byName.get(name));
  }

  public Collection<String> names() {
    return new TreeMap<>(byName).keySet();
  }

  /**
   * The mapping by name to run: a 503 while the registry refuses to run any, else {@link #require}.
   */
  CompiledMapping requireRunnable(String name) throws HttpError {
    requireRunning();
    return require(name);
  }

  /**
   * A 503 with the line while the registry refuses to run any mapping: asked before any other
   * answer about which mapping runs (a default URL without a default mapping included, which was a
   * 404 "no default mapping" once a reload removed the replayed mapping).
   */
  void requireRunning() throws HttpError {
    if (refusal != null) {
      throw new HttpError(503, refusal);
    }
  }

  /** The mapping by name, or a 404 that lists the loaded ones. */
  CompiledMapping require(String name) throws HttpError {
    CompiledMapping mapping = byName.get(name);
    if (mapping == null) {
      throw new HttpError(404, "unknown mapping '" + name + "'; known: " + known());
    }
    return mapping;
  }

  /** The loaded names, for a 404. */
  String known() {
    return byName.isEmpty() ? "(none loaded)" : String.join(", ", names());
  }
}
