package io.github.appsetmapper.compile;

import io.github.appsetmapper.config.MappingException;
import io.github.appsetmapper.config.MappingNames;
import io.github.appsetmapper.config.MappingParser;
import io.github.appsetmapper.config.MappingSources;
import io.github.appsetmapper.config.MappingSpec;
import io.github.appsetmapper.config.Pos;
import io.github.appsetmapper.config.Problem;
import io.github.appsetmapper.config.YamlLimits;
import io.github.appsetmapper.files.BoundedFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Loads and compiles every mapping named by paths; collects the problems of all files. */
public final class MappingLoader {
  private MappingLoader() {}

  /**
   * The mappings that loaded and the problems of those that did not.
   *
   * @param options what later loads of these files use: the bare {@code --var}s bound to what the
   *     mappings declaring them say they are ({@link VarValues#bind})
   * @param varErrors {@code --var}s refused: bare ones that the mappings disagree on
   * @param declared the vars each mapping declares, by mapping name (for unknown {@code --var}s)
   */
  public record Result(
      List<CompiledMapping> mappings,
      List<Problem> problems,
      CompileOptions options,
      List<String> varErrors,
      Map<String, Set<String>> declared) {

    public Result(List<CompiledMapping> mappings, List<Problem> problems) {
      this(mappings, problems, null, List.of(), Map.of());
    }

    public boolean ok() {
      return problems.isEmpty() && varErrors.isEmpty();
    }

    /** One line per {@code --var} that no loaded mapping declares. */
    public List<String> unknownVars() {
      return options == null
          ? List.of()
          : options.vars().unknown(declared).stream()
              .map(var -> VarValues.unknownMessage(var, declared))
              .toList();
    }
  }

  /**
   * The mappings of one file, or its problems (then no mapping of it is returned), as a reload
   * loads it: a bare {@code --var} no earlier load bound is bound here to what this file's mappings
   * say it is, so that whichever mapping arrives first fixes it and a later one that declares it
   * differently does not load. {@link Result#options} carries the binding on; a file that does not
   * load binds nothing.
   */
  public static Result loadFile(Path file, CompileOptions options) {
    List<Problem> problems = new ArrayList<>();
    List<MappingSpec> specs = parse(file, problems, options);
    if (specs == null) {
      return new Result(List.of(), problems);
    }
    VarValues.Binding binding = options.vars().bind(specs);
    if (!binding.errors().isEmpty()) {
      Pos where = specs.get(0).namePos();
      return new Result(
          List.of(),
          binding.errors().stream().map(error -> new Problem(where, error)).toList(),
          options,
          List.of(),
          VarValues.declared(specs));
    }
    CompileOptions bound = options.withVars(binding.vars());
    Result compiled = compile(specs, bound);
    return compiled.ok()
        ? new Result(compiled.mappings(), List.of(), bound, List.of(), VarValues.declared(specs))
        : compiled;
  }

  /** The specs of one file, or null with its problems added. */
  private static List<MappingSpec> parse(
      Path file, List<Problem> problems, CompileOptions options) {
    return parse(file, problems, options, new ArrayList<>());
  }

  /** As above, with what was read of a file that did not parse added to {@code read}. */
  private static List<MappingSpec> parse(
      Path file, List<Problem> problems, CompileOptions options, List<MappingSpec> read) {
    String content;
    try {
      content = BoundedFiles.readText(file, YamlLimits.MAPPING.fileBytes());
    } catch (IOException e) {
      problems.add(new Problem(new Pos(file.toString(), 1, 1, ""), BoundedFiles.why(e)));
      return null;
    }
    try {
      return MappingParser.parseLeavingNames(file.toString(), content);
    } catch (MappingException e) {
      problems.addAll(e.problems());
      problems.addAll(laterProblems(e, options));
      read.addAll(e.partial());
      return null;
    }
  }

  /**
   * What compiling a file that did not parse would also find: every problem of a file is said at
   * once (a {@code linkHeader: true} hid the file's invalid expressions). The mappings as far as
   * they were read are compiled, never served; a problem at a place already named is left out (a
   * field in error is missing from them), and so is a compile that cannot run on what is missing.
   */
  private static List<Problem> laterProblems(MappingException parse, CompileOptions options) {
    java.util.Set<String> named = new java.util.HashSet<>();
    parse.problems().forEach(p -> named.add(place(p.pos())));
    List<Problem> later = new ArrayList<>();
    java.util.Set<String> names = new java.util.HashSet<>();
    List<MappingSpec> partial = parse.partial();
    for (int i = 0; i < partial.size(); i++) {
      MappingSpec spec = partial.get(i);
      if (spec.name() != null && spec.namePos() != null && !names.add(spec.name())) {
        Problem duplicate =
            new Problem(
                spec.namePos(), "duplicate mapping name '" + spec.name() + "' in this file");
        if (named.add(place(duplicate.pos()))) {
          later.add(duplicate);
        }
      }
      int next = i + 1 < partial.size() ? partial.get(i + 1).pos().line() : Integer.MAX_VALUE;
      try {
        MappingCompiler.compileRead(
            spec,
            options.withVars(options.vars().bind(List.of(spec)).vars()),
            unread(parse.problems(), spec.pos().line(), next));
      } catch (MappingException e) {
        e.problems().stream().filter(p -> named.add(place(p.pos()))).forEach(later::add);
      } catch (RuntimeException e) {
        // A part the compiler needs was missing: the parse's problems name it.
      }
    }
    return later;
  }

  /**
   * The names given by the blocks of one document (lines {@code from} to before {@code to}) that
   * its reading refused whole ({@code list: "x"}, {@code input: [a]}): their one line says the
   * mistake, not one more line for every expression that reads {@code item} or {@code input.a}.
   */
  private static java.util.Set<String> unread(List<Problem> problems, int from, int to) {
    java.util.Set<String> unread = new java.util.HashSet<>();
    for (Problem problem : problems) {
      int line = problem.pos().line();
      if (line < from || line >= to) {
        continue;
      }
      switch (problem.pos().path()) {
        case "list" -> unread.add("item");
        case "input" -> unread.add("input");
        case "vars" -> unread.add("vars");
        case "secrets" -> unread.add("secret");
        case "enrich", "let", "explode" -> unread.add(ExpressionCompiler.UNREAD_NAMES);
        default -> entry(problem.pos().path(), unread);
      }
    }
    return unread;
  }

  /**
   * An entry of a block that its reading refused ({@code input: {branch: "main"}}, {@code enrich:
   * {st: "x"}}): what reads it is not said undeclared or unknown too, one line per entry. A field
   * inside an entry ({@code input.a.type}) leaves the entry read.
   */
  private static void entry(String path, java.util.Set<String> unread) {
    int dot = path.indexOf('.');
    if (dot <= 0 || path.indexOf('.', dot + 1) >= 0) {
      return;
    }
    String name = path.substring(dot + 1);
    switch (path.substring(0, dot)) {
      case "input" -> unread.add("input." + name);
      case "vars" -> unread.add("vars." + name);
      case "secrets" -> unread.add("secret." + name);
      case "enrich", "let" -> unread.add(name);
      default -> {
        // a field inside a block: the block's other names were read
      }
    }
  }

  /**
   * A name two files give, said whether or not the first copy compiled: a mapping that does not
   * compile is fixed next, and then the two collide (the compiled ones are said as they load).
   */
  private static void duplicatesAcrossFiles(
      Map<Path, List<MappingSpec>> read, List<Problem> problems) {
    java.util.Set<String> said = new java.util.HashSet<>();
    problems.forEach(p -> said.add(place(p.pos())));
    Map<String, Path> first = new java.util.HashMap<>();
    read.forEach(
        (file, specs) -> {
          for (MappingSpec spec : specs) {
            if (spec.name() == null || spec.namePos() == null) {
              continue;
            }
            Path earlier = first.putIfAbsent(spec.name(), file);
            if (earlier != null && !earlier.equals(file)) {
              Problem duplicate =
                  new Problem(
                      spec.namePos(),
                      "duplicate mapping name '" + spec.name() + "' (also in " + earlier + ")");
              if (said.add(place(duplicate.pos()))) {
                problems.add(duplicate);
              }
            }
          }
        });
  }

  private static String place(Pos pos) {
    return pos.file() + ":" + pos.line() + ":" + pos.column();
  }

  private static Result compile(List<MappingSpec> specs, CompileOptions options) {
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
      // An invalid name is said with the mapping's other problems, not instead of them.
      Problem name = MappingNames.problem(spec);
      if (name != null) {
        problems.add(name);
      }
      try {
        CompiledMapping compiled = MappingCompiler.compile(spec, options);
        if (name == null) {
          mappings.add(compiled);
        }
      } catch (MappingException e) {
        problems.addAll(e.problems());
      }
    }
    return problems.isEmpty()
        ? new Result(List.copyOf(mappings), List.of())
        : new Result(List.of(), List.copyOf(problems));
  }

  /**
   * Every mapping of every file: all files are parsed first, so that each bare {@code --var} is
   * bound to what the mappings declaring it say it is before any of them compiles.
   */
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
    Map<Path, List<MappingSpec>> parsed = new LinkedHashMap<>();
    Map<Path, List<MappingSpec>> read = new LinkedHashMap<>();
    List<MappingSpec> all = new ArrayList<>();
    for (Path file : files) {
      List<MappingSpec> partial = new ArrayList<>();
      List<MappingSpec> specs = parse(file, problems, options, partial);
      if (specs != null) {
        parsed.put(file, specs);
        all.addAll(specs);
      }
      read.put(file, specs != null ? specs : partial);
    }
    VarValues.Binding binding = options.vars().bind(all);
    CompileOptions bound = options.withVars(binding.vars());
    Map<String, CompiledMapping> byName = new LinkedHashMap<>();
    for (List<MappingSpec> specs : parsed.values()) {
      Result result = compile(specs, bound);
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
    duplicatesAcrossFiles(read, problems);
    return new Result(
        List.copyOf(byName.values()),
        List.copyOf(problems),
        bound,
        binding.errors(),
        VarValues.declared(all));
  }
}
