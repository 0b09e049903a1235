package io.github.appsetmapper.expr;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The names an expression may read at one place of a mapping, bound to their values; immutable. The
 * compiler and the engine build it by the same steps ({@code with}, {@code without}): at load time
 * the values are {@link #UNKNOWN}, the names left out say why ({@link #unavailable()}) and the
 * members the mapping declares are known ({@link Declared}: its inputs, vars and secrets), so that
 * every name an expression reads is checked against the place it is in; at request time the values
 * are the data, and {@link #root()} is what SpEL reads.
 */
public final class Scope {
  /** The names the scope gives, reserved: no enrich step may take one of them. */
  public enum Name {
    INPUT("input", true, true),
    APPLICATION_SET_NAME("applicationSetName", false, true),
    ITEM("item", false, false),
    VARS("vars", true, true),
    SECRET("secret", true, true),
    RESPONSE("response", false, true),
    PAGE("page", false, true);

    /** Every reserved name as written. */
    public static final Set<String> RESERVED =
        Arrays.stream(values()).map(Name::word).collect(Collectors.toUnmodifiableSet());

    private final String word;
    private final boolean declaredMembers;
    private final boolean onlyInScope;

    Name(String word, boolean declaredMembers, boolean onlyInScope) {
      this.word = word;
      this.declaredMembers = declaredMembers;
      this.onlyInScope = onlyInScope;
    }

    public String word() {
      return word;
    }

    /** Whether its members are declared by the mapping ({@code input.x}, {@code vars.x}). */
    public boolean declaredMembers() {
      return declaredMembers;
    }

    /**
     * Whether only the scope has it, so that reading it inside a projection (where names read the
     * element) is a mistake; {@code item} may well be a field of an element.
     */
    public boolean onlyInScope() {
      return onlyInScope;
    }

    /** The names with declared members. */
    public static Set<String> withDeclaredMembers() {
      return words(Name::declaredMembers);
    }

    /** The names only the scope has. */
    public static Set<String> onlyInScopeNames() {
      return words(Name::onlyInScope);
    }

    private static Set<String> words(java.util.function.Predicate<Name> which) {
      return Arrays.stream(values())
          .filter(which)
          .map(Name::word)
          .collect(Collectors.toUnmodifiableSet());
    }
  }

  /**
   * At load time, what is known of a name's value: the members the mapping declares ({@code open}:
   * any member may be read, as {@code inputAdditional} allows).
   */
  public record Declared(Set<String> members, boolean open) {
    public Declared {
      members = Collections.unmodifiableSet(new LinkedHashSet<>(members));
    }
  }

  /** At load time, the value of a name that is only known at request time. */
  public static final Object UNKNOWN =
      new Object() {
        @Override
        public String toString() {
          return "(known at request time)";
        }
      };

  private static final Scope EMPTY = new Scope(Map.of(), Map.of(), Map.of());

  private final Map<String, Object> values;
  private final Map<String, String> unavailable;
  private final Map<Name, Declared> declared;

  private Scope(
      Map<String, Object> values, Map<String, String> unavailable, Map<Name, Declared> declared) {
    this.values = values;
    this.unavailable = unavailable;
    this.declared = declared;
  }

  public static Scope empty() {
    return EMPTY;
  }

  /**
   * {@code empty().withAll(values)} without copying {@code values}: the caller made the map for
   * this scope alone and never changes it after (a getparams' base scope, made per request).
   */
  public static Scope of(Map<String, Object> values) {
    return new Scope(Collections.unmodifiableMap(values), Map.of(), Map.of());
  }

  /** This scope knowing what the mapping declares of {@code name}'s members (load time). */
  public Scope declaring(Name name, Declared members) {
    Map<Name, Declared> more = new java.util.EnumMap<>(Name.class);
    more.putAll(declared);
    more.put(name, members);
    return new Scope(values, unavailable, Collections.unmodifiableMap(more));
  }

  /** This scope with {@code name} bound to {@code value}. */
  public Scope with(Name name, Object value) {
    return with(name.word(), value);
  }

  /** This scope with a mapping's own name (an enrich step's) bound to {@code value}. */
  public Scope with(String name, Object value) {
    Map<String, Object> more = new HashMap<>(values);
    more.put(name, value);
    Map<String, String> reasons = unavailable;
    if (reasons.containsKey(name)) {
      reasons = new HashMap<>(reasons);
      reasons.remove(name);
    }
    return new Scope(Collections.unmodifiableMap(more), reasons, declared);
  }

  /** This scope with {@code values} bound, as {@link #with(String, Object)} one by one. */
  public Scope withAll(Map<String, Object> bound) {
    if (bound.isEmpty()) {
      return this;
    }
    Map<String, Object> more = new HashMap<>(values);
    more.putAll(bound);
    Map<String, String> reasons = unavailable;
    if (!reasons.isEmpty()) {
      reasons = new HashMap<>(reasons);
      reasons.keySet().removeAll(bound.keySet());
    }
    return new Scope(Collections.unmodifiableMap(more), reasons, declared);
  }

  /** This scope without {@code name}; {@code reason} (or null) says why, for a load error. */
  public Scope without(Name name, String reason) {
    return without(name.word(), reason);
  }

  public Scope without(String name, String reason) {
    Map<String, Object> fewer = values;
    if (values.containsKey(name)) {
      fewer = new HashMap<>(values);
      fewer.remove(name);
      fewer = Collections.unmodifiableMap(fewer);
    }
    Map<String, String> reasons = unavailable;
    if (reason != null) {
      reasons = new HashMap<>(unavailable);
      reasons.put(name, reason);
    }
    return new Scope(fewer, reasons, declared);
  }

  /** The names that may be read here. */
  public Set<String> names() {
    return values.keySet();
  }

  /** Why a name that is not here is not, by name (only at load time). */
  public Map<String, String> unavailable() {
    return Collections.unmodifiableMap(unavailable);
  }

  /** The value bound to {@code name}, or null. */
  public Object get(Name name) {
    return values.get(name.word());
  }

  /** What the mapping declares of {@code name}'s members (none known: none declared). */
  public Declared declared(Name name) {
    return declared.getOrDefault(name, NONE_DECLARED);
  }

  private static final Declared NONE_DECLARED = new Declared(Set.of(), false);

  /** The names and their values, as SpEL reads them (unmodifiable). */
  public Map<String, Object> root() {
    return values;
  }

  @Override
  public String toString() {
    return "Scope" + List.copyOf(values.keySet());
  }
}
