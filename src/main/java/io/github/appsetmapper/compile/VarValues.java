package io.github.appsetmapper.compile;

import io.github.appsetmapper.config.MappingSpec;
import io.github.appsetmapper.config.Problems;
import io.github.appsetmapper.config.VarSpec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The {@code --var} values: {@code MAPPING.NAME=VALUE} sets one mapping's var; a bare {@code
 * NAME=VALUE} sets the var of every mapping that declares it, while they all agree on what it is
 * (the same {@code env}, or without one the same default). The catalogue's mappings all call their
 * base URL {@code api}: one bare value for a GitHub and a GitLab mapping would send the GitLab
 * token to the GitHub host, so a bare var the mappings disagree on is refused, and {@link #bind}
 * fixes what each bare var is for when the first mapping declaring it loads (at start, or by a
 * reload when none declared it at start) so that a mapping arriving later cannot quietly take a
 * value meant for others.
 *
 * @param bare the bare values by var name
 * @param qualified the qualified values by mapping name, then var name
 * @param meanings for a bound bare var, what it is ({@link #meaning}); empty before binding
 * @param recorded the vars a replayed test file gave ({@code NAME} or {@code MAPPING.NAME}): never
 *     named as unknown, since the file may hold vars of a mapping not loaded or not declaring them
 *     (as {@code test} reads it), and never a {@code --var} the user did not give
 */
public record VarValues(
    Map<String, String> bare,
    Map<String, Map<String, String>> qualified,
    Map<String, String> meanings,
    Set<String> recorded) {

  public static final VarValues NONE = new VarValues(Map.of(), Map.of(), Map.of());

  public VarValues(
      Map<String, String> bare,
      Map<String, Map<String, String>> qualified,
      Map<String, String> meanings) {
    this(bare, qualified, meanings, Set.of());
  }

  /** The meaning of a var bound for every mapping that declares it (a test file's vars). */
  private static final String ANY = "any";

  public VarValues {
    bare = Map.copyOf(bare);
    Map<String, Map<String, String>> copy = new HashMap<>();
    qualified.forEach((mapping, vars) -> copy.put(mapping, Map.copyOf(vars)));
    qualified = Map.copyOf(copy);
    meanings = Map.copyOf(meanings);
    recorded = Set.copyOf(recorded);
  }

  /**
   * Reads {@code NAME=VALUE} and {@code MAPPING.NAME=VALUE} entries (keys as picocli gives them).
   *
   * @throws IllegalArgumentException naming a key that is neither
   */
  public static VarValues parse(Map<String, String> given) {
    Map<String, String> bare = new LinkedHashMap<>();
    Map<String, Map<String, String>> qualified = new LinkedHashMap<>();
    for (Map.Entry<String, String> entry : given.entrySet()) {
      String key = entry.getKey();
      int dot = key.indexOf('.');
      String name = dot < 0 ? key : key.substring(dot + 1);
      String mapping = dot < 0 ? null : key.substring(0, dot);
      if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")
          || (mapping != null && !mapping.matches("[a-z0-9]([a-z0-9-]*[a-z0-9])?"))) {
        throw new IllegalArgumentException(
            "--var "
                + key
                + "=...: give NAME=VALUE (every mapping that declares NAME) or"
                + " MAPPING.NAME=VALUE (one mapping)");
      }
      if (mapping == null) {
        bare.put(name, entry.getValue());
      } else {
        qualified.computeIfAbsent(mapping, m -> new LinkedHashMap<>()).put(name, entry.getValue());
      }
    }
    return new VarValues(bare, qualified, Map.of());
  }

  public boolean isEmpty() {
    return bare.isEmpty() && qualified.isEmpty();
  }

  /**
   * These values under {@code winning}: bare values that beat every value given here (a mapping
   * test file's {@code vars}, which its recorded calls depend on).
   */
  public VarValues under(Map<String, String> winning) {
    return under(winning, recorded);
  }

  /**
   * A replayed test file's {@code vars} over these: for the mapping the file names only (its {@code
   * mapping:}), or every mapping when it names none, winning over what was given (its recorded
   * calls were made with them). Applied to every mapping served, one file's vars answered for
   * another mapping that declares the same names (an outside tester's find).
   */
  public VarValues underTestFile(String mapping, Map<String, String> winning) {
    if (mapping == null) {
      return under(winning, union(recorded, winning.keySet()));
    }
    Map<String, Map<String, String>> merged = new LinkedHashMap<>(qualified);
    Map<String, String> own = new LinkedHashMap<>(qualified.getOrDefault(mapping, Map.of()));
    own.putAll(winning);
    merged.put(mapping, own);
    Set<String> names = new java.util.HashSet<>(recorded);
    winning.keySet().forEach(name -> names.add(mapping + "." + name));
    return new VarValues(bare, merged, meanings, names);
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> out = new java.util.HashSet<>(a);
    out.addAll(b);
    return out;
  }

  private VarValues under(Map<String, String> winning, Set<String> recordedNames) {
    Map<String, String> merged = new LinkedHashMap<>(bare);
    merged.putAll(winning);
    Map<String, String> bound = new LinkedHashMap<>(meanings);
    winning.keySet().forEach(name -> bound.put(name, ANY));
    Map<String, Map<String, String>> rest = new LinkedHashMap<>();
    qualified.forEach(
        (mapping, vars) -> {
          Map<String, String> kept = new LinkedHashMap<>(vars);
          kept.keySet().removeAll(winning.keySet());
          rest.put(mapping, kept);
        });
    return new VarValues(merged, rest, bound, recordedNames);
  }

  /**
   * The value given for {@code var} of {@code mapping}, or null; a bare value bound to another
   * meaning than this declaration's is a problem (this mapping needs its own, qualified value).
   */
  String given(String mapping, VarSpec var, Problems problems) {
    Map<String, String> own = qualified.get(mapping);
    if (own != null && own.containsKey(var.name())) {
      return own.get(var.name());
    }
    String value = bare.get(var.name());
    String bound = meanings.get(var.name());
    if (value != null
        && bound != null
        && !bound.equals(ANY)
        && !bound.equals(meaning(mapping, var))) {
      problems.add(
          var.pos(),
          "--var "
              + var.name()
              + " is bound to the mappings whose '"
              + var.name()
              + "' "
              + describe(bound)
              + "; this mapping declares it differently (its '"
              + var.name()
              + "' "
              + describe(meaning(mapping, var))
              + "): give it its own with --var "
              + mapping
              + "."
              + var.name()
              + "=VALUE");
      return null;
    }
    return value;
  }

  /** What bare vars are for, fixed from the mappings that declare them; or why they cannot be. */
  public record Binding(VarValues vars, List<String> errors) {}

  /**
   * Binds every bare var to what the mappings in {@code specs} that declare it say it is. A bare
   * var they disagree on is an error naming them and the qualified form, and is dropped.
   */
  public Binding bind(Collection<MappingSpec> specs) {
    Map<String, String> bound = new LinkedHashMap<>(meanings);
    Map<String, String> kept = new LinkedHashMap<>(bare);
    List<String> errors = new ArrayList<>();
    for (String name : bare.keySet()) {
      if (meanings.containsKey(name)) {
        continue;
      }
      // What each declaring mapping says the var is, in the order the mappings loaded.
      Map<String, List<String>> groups = new LinkedHashMap<>();
      for (MappingSpec spec : specs) {
        VarSpec var = spec.vars().get(name);
        Map<String, String> own = qualified.get(spec.name());
        if (var != null && (own == null || !own.containsKey(name))) {
          groups
              .computeIfAbsent(meaning(spec.name(), var), m -> new ArrayList<>())
              .add(spec.name());
        }
      }
      if (groups.size() == 1) {
        bound.put(name, groups.keySet().iterator().next());
      } else if (groups.size() > 1) {
        kept.remove(name);
        List<String> said = new ArrayList<>();
        groups.forEach(
            (meaning, mappings) ->
                said.add(
                    String.join(" and ", mappings)
                        + " "
                        + (mappings.size() == 1 ? describe(meaning) : plural(describe(meaning)))));
        errors.add(
            "--var "
                + name
                + " is ambiguous: the mappings that declare '"
                + name
                + "' disagree on what it is ("
                + String.join("; ", said)
                + "); give each its own with --var MAPPING."
                + name
                + "=VALUE, e.g. --var "
                + groups.values().iterator().next().get(0)
                + "."
                + name
                + "=...");
      }
    }
    return new Binding(new VarValues(kept, qualified, bound, recorded), List.copyOf(errors));
  }

  /**
   * The given vars no mapping declares ({@code nope}, {@code github-pulls.nope}), sorted.
   *
   * @param declared the var names each mapping declares, by mapping name
   */
  public List<String> unknown(Map<String, Set<String>> declared) {
    Set<String> out = new TreeSet<>();
    for (String name : bare.keySet()) {
      if (recorded.contains(name)) {
        continue;
      }
      if (declared.values().stream().noneMatch(vars -> vars.contains(name))) {
        out.add(name);
      }
    }
    qualified.forEach(
        (mapping, vars) ->
            vars.keySet().stream()
                .filter(name -> !recorded.contains(mapping + "." + name))
                .filter(name -> !declared.getOrDefault(mapping, Set.of()).contains(name))
                .forEach(name -> out.add(mapping + "." + name)));
    return List.copyOf(out);
  }

  /** The declared var names of each spec, for {@link #unknown}. */
  public static Map<String, Set<String>> declared(Collection<MappingSpec> specs) {
    Map<String, Set<String>> out = new TreeMap<>();
    specs.forEach(spec -> out.put(spec.name(), Set.copyOf(spec.vars().keySet())));
    return out;
  }

  /** One line per unknown var, naming the mappings and what they declare. */
  public static String unknownMessage(String var, Map<String, Set<String>> declared) {
    int dot = var.indexOf('.');
    if (dot >= 0 && !declared.containsKey(var.substring(0, dot))) {
      return "--var "
          + var
          + ": no mapping '"
          + var.substring(0, dot)
          + "' is loaded (loaded: "
          + (declared.isEmpty() ? "none" : String.join(", ", declared.keySet()))
          + ")";
    }
    if (dot >= 0) {
      Set<String> vars = new TreeSet<>(declared.get(var.substring(0, dot)));
      return "--var "
          + var
          + ": mapping '"
          + var.substring(0, dot)
          + "' declares no var '"
          + var.substring(dot + 1)
          + "' (it declares: "
          + (vars.isEmpty() ? "none" : String.join(", ", vars))
          + ")";
    }
    Set<String> all = new TreeSet<>();
    declared.values().forEach(all::addAll);
    return "--var "
        + var
        + ": no loaded mapping declares it (declared: "
        + (all.isEmpty() ? "none" : String.join(", ", all))
        + ")";
  }

  /**
   * What a declaration says its var is: its environment variable, else its default; a var with
   * neither is only its own mapping's.
   */
  static String meaning(String mapping, VarSpec var) {
    if (var.env() != null) {
      return "env " + var.env();
    }
    if (var.defaultValue() != null) {
      return "default " + var.defaultValue();
    }
    return "own " + mapping;
  }

  private static String describe(String meaning) {
    if (meaning.startsWith("env ")) {
      return "reads $" + meaning.substring(4);
    }
    if (meaning.startsWith("default ")) {
      return "defaults to " + meaning.substring(8);
    }
    return "has neither env nor default";
  }

  private static String plural(String verbPhrase) {
    if (verbPhrase.startsWith("reads ")) {
      return "read " + verbPhrase.substring(6);
    }
    if (verbPhrase.startsWith("defaults ")) {
      return "default " + verbPhrase.substring(9);
    }
    return "have neither env nor default";
  }
}
