package io.github.appsetmapper.compile;

import io.github.appsetmapper.config.MappingException;
import io.github.appsetmapper.config.MappingParser;
import io.github.appsetmapper.config.MappingSources;
import io.github.appsetmapper.config.MappingSpec;
import io.github.appsetmapper.config.Pos;
import io.github.appsetmapper.config.Problem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Loads and compiles every mapping named by paths; collects the problems of all files. */
public final class MappingLoader {
  private MappingLoader() {}

  /** The mappings that loaded and the problems of those that did not. */
  public record Result(List<CompiledMapping> mappings, List<Problem> problems) {
    public boolean ok() {
      return problems.isEmpty();
    }
  }

  /** The mappings of one file, or its problems (then no mapping of it is returned). */
  public static Result loadFile(Path file, CompileOptions options) {
    String content;
    try {
      content = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return new Result(
          List.of(),
          List.of(
              new Problem(new Pos(file.toString(), 1, 1, ""), "cannot read: " + e.getMessage())));
    }
    List<MappingSpec> specs;
    try {
      specs = MappingParser.parse(file.toString(), content);
    } catch (MappingException e) {
      return new Result(List.of(), e.problems());
    }
    List<CompiledMapping> mappings = new ArrayList<>();
    List<Problem> problems = new ArrayList<>();
    Map<String, MappingSpec> names = new LinkedHashMap<>();
    for (MappingSpec spec : specs) {
      if (names.putIfAbsent(spec.name(), spec) != null) {
        problems.add(
            new Problem(
                spec.namePos(), "duplicate mapping name '" + spec.name() + "' in this file"));
        continue;
      }
      try {
        mappings.add(MappingCompiler.compile(spec, options));
      } catch (MappingException e) {
        problems.addAll(e.problems());
      }
    }
    return problems.isEmpty()
        ? new Result(List.copyOf(mappings), List.of())
        : new Result(List.of(), List.copyOf(problems));
  }

  public static Result load(List<Path> paths, CompileOptions options) {
    List<Problem> problems = new ArrayList<>();
    List<Path> files = new ArrayList<>();
    for (Path path : paths) {
      try {
        files.addAll(MappingSources.expand(List.of(path)));
      } catch (IOException e) {
        problems.add(new Problem(new Pos(path.toString(), 1, 1, ""), e.getMessage()));
      }
    }
    Map<String, CompiledMapping> byName = new LinkedHashMap<>();
    for (Path file : files) {
      Result result = loadFile(file, options);
      problems.addAll(result.problems());
      for (CompiledMapping mapping : result.mappings()) {
        CompiledMapping first = byName.get(mapping.name());
        if (first != null) {
          problems.add(
              new Problem(
                  mapping.namePos(),
                  "duplicate mapping name '"
                      + mapping.name()
                      + "' (also in "
                      + first.sourceFile()
                      + ")"));
          continue;
        }
        byName.put(mapping.name(), mapping);
      }
    }
    return new Result(List.copyOf(byName.values()), List.copyOf(problems));
  }
}
