package io.github.appsetmapper.diff.run;

import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.compile.MappingLoader;
import io.github.appsetmapper.diff.MappingDiff;
import io.github.appsetmapper.replay.ExchangeFile;
import io.github.appsetmapper.replay.MappingTestRun;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How {@code diff} pairs: the mappings of the two sides by name (a rename by file name), and each
 * pair with the test file that records its inputs, by the one rule the other commands use.
 */
final class Pairing {
  /** One mapping across the sides: null on the side it is missing from. */
  record Pair(CompiledMapping before, CompiledMapping after, MappingDiff.Presence presence) {}

  private Pairing() {}

  /** Mappings by name; an unpaired pair from files of the same name is a rename. */
  static List<Pair> pairs(MappingLoader.Result before, MappingLoader.Result after) {
    Map<String, CompiledMapping> old = byName(before.mappings());
    Map<String, CompiledMapping> neu = byName(after.mappings());
    List<Pair> pairs = new ArrayList<>();
    Set<String> onlyOld = new LinkedHashSet<>(old.keySet());
    onlyOld.removeAll(neu.keySet());
    Set<String> onlyNew = new LinkedHashSet<>(neu.keySet());
    onlyNew.removeAll(old.keySet());
    Map<String, String> renamed = new LinkedHashMap<>();
    boolean singleFiles = old.size() == 1 && neu.size() == 1;
    for (String o : onlyOld) {
      for (String n : onlyNew) {
        if (!renamed.containsValue(n) && (singleFiles || sameFileName(old.get(o), neu.get(n)))) {
          renamed.put(o, n);
          break;
        }
      }
    }
    Set<String> names = new java.util.TreeSet<>(old.keySet());
    names.addAll(neu.keySet());
    for (String name : names) {
      if (renamed.containsValue(name)) {
        continue;
      }
      if (renamed.containsKey(name)) {
        pairs.add(
            new Pair(old.get(name), neu.get(renamed.get(name)), MappingDiff.Presence.RENAMED));
      } else if (old.containsKey(name) && neu.containsKey(name)) {
        pairs.add(new Pair(old.get(name), neu.get(name), MappingDiff.Presence.BOTH));
      } else if (old.containsKey(name)) {
        pairs.add(new Pair(old.get(name), null, MappingDiff.Presence.REMOVED));
      } else {
        pairs.add(new Pair(null, neu.get(name), MappingDiff.Presence.ADDED));
      }
    }
    return pairs;
  }

  private static boolean sameFileName(CompiledMapping a, CompiledMapping b) {
    return a.sourceFile() != null
        && b.sourceFile() != null
        && Path.of(a.sourceFile()).getFileName().equals(Path.of(b.sourceFile()).getFileName());
  }

  private static Map<String, CompiledMapping> byName(List<CompiledMapping> mappings) {
    Map<String, CompiledMapping> out = new LinkedHashMap<>();
    mappings.forEach(m -> out.put(m.name(), m));
    return out;
  }

  /**
   * The test file that records the inputs of this pair, by the one rule of {@code test}, {@code run
   * --replay} and {@code serve --replay} ({@link ExchangeFile#notTesting}), on either side: a file
   * whose {@code mapping:} names the pair's mapping there; else a file naming none, among the
   * mappings of the file it is named after ({@code x.test.yaml}: {@code x.yaml}, as {@code test}
   * takes the file beside it); else the single test file of a single pair (its side's only
   * mapping). A file the rule refuses for this pair (naming none beside a file of several mappings,
   * or naming a mapping not there) is refused with the rule's line, never replayed.
   */
  static ExchangeFile fileFor(
      Pair pair, List<ExchangeFile> recorded, List<Pair> pairs, String afterSource)
      throws DiffRun.Refused {
    List<String> beforeNames = names(pairs, Pair::before);
    List<String> afterNames = names(pairs, Pair::after);
    for (ExchangeFile file : recorded) {
      if (file.mapping() != null
          && (tests(file, pair.before().name(), beforeNames)
              || tests(file, pair.after().name(), afterNames))) {
        return file;
      }
    }
    for (ExchangeFile file : recorded) {
      if (file.mapping() == null) {
        String tested = MappingTestRun.mappingFileFor(file.path()).getFileName().toString();
        List<String> before = beside(pairs, Pair::before, tested);
        List<String> after = beside(pairs, Pair::after, tested);
        if (tests(file, pair.before().name(), before) || tests(file, pair.after().name(), after)) {
          return file;
        }
        if (before.contains(pair.before().name()) || after.contains(pair.after().name())) {
          boolean newSide = after.contains(pair.after().name());
          CompiledMapping there = newSide ? pair.after() : pair.before();
          throw refusedBy(file, newSide ? after : before, there.sourceFile());
        }
      }
    }
    if (recorded.size() == 1 && pairs.size() == 1) {
      ExchangeFile only = recorded.get(0);
      if (tests(only, pair.after().name(), afterNames)
          || tests(only, pair.before().name(), beforeNames)) {
        return only;
      }
      throw refusedBy(only, afterNames, afterSource);
    }
    return null;
  }

  /**
   * Whether {@code file} tests {@code name} among {@code loaded} by the rule ({@link
   * ExchangeFile#notTesting}): the rule holds and {@link ExchangeFile#tested} is that name.
   */
  private static boolean tests(ExchangeFile file, String name, List<String> loaded) {
    return file.notTesting(loaded, "") == null && file.tested(loaded).equals(name);
  }

  private static DiffRun.Refused refusedBy(ExchangeFile file, List<String> loaded, String source) {
    return new DiffRun.Refused(
        List.of("--replay " + file.path() + ": " + file.notTesting(loaded, source)));
  }

  /** The names of one side's mappings. */
  private static List<String> names(
      List<Pair> pairs, java.util.function.Function<Pair, CompiledMapping> side) {
    return pairs.stream().map(side).filter(java.util.Objects::nonNull).map(m -> m.name()).toList();
  }

  /** The names of one side's mappings whose file is named {@code fileName}. */
  private static List<String> beside(
      List<Pair> pairs, java.util.function.Function<Pair, CompiledMapping> side, String fileName) {
    return pairs.stream()
        .map(side)
        .filter(m -> m != null && m.sourceFile() != null)
        .filter(m -> Path.of(m.sourceFile()).getFileName().toString().equals(fileName))
        .map(CompiledMapping::name)
        .toList();
  }
}
