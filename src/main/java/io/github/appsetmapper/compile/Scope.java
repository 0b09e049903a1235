package io.github.appsetmapper.compile;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The names an expression at one place of a mapping may read, and why the others are not there
 * ({@code secret} outside a request, {@code response} outside {@code value}, a later enrich).
 */
record Scope(
    Set<String> names,
    Map<String, String> unavailable,
    Set<String> inputs,
    boolean inputAdditional,
    Set<String> secrets,
    Set<String> vars) {

  static final Set<String> RESERVED =
      Set.of("input", "applicationSetName", "item", "vars", "secret", "response", "page");

  Scope with(String... added) {
    Set<String> more = new LinkedHashSet<>(names);
    Map<String, String> reasons = new LinkedHashMap<>(unavailable);
    for (String name : added) {
      more.add(name);
      reasons.remove(name);
    }
    return new Scope(more, reasons, inputs, inputAdditional, secrets, vars);
  }

  Scope without(String name, String reason) {
    Set<String> fewer = new LinkedHashSet<>(names);
    fewer.remove(name);
    Map<String, String> reasons = new LinkedHashMap<>(unavailable);
    reasons.put(name, reason);
    return new Scope(fewer, reasons, inputs, inputAdditional, secrets, vars);
  }
}
