package io.github.appsetmapper.expr;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The instance methods an expression may call, by receiver type. Nothing that reaches a class, a
 * class loader, reflection or an unbounded allocation ({@code repeat}) is here.
 */
public final class MethodAllowlist {
  static final Set<String> STRING =
      Set.of(
          "replace",
          "replaceAll",
          "replaceFirst",
          "substring",
          "startsWith",
          "endsWith",
          "contains",
          "toLowerCase",
          "toUpperCase",
          "trim",
          "strip",
          "split",
          "length",
          "isEmpty",
          "isBlank",
          "indexOf",
          "lastIndexOf",
          "matches",
          "equals",
          "equalsIgnoreCase",
          "charAt",
          "concat",
          "compareTo",
          "toString");
  static final Set<String> COLLECTION =
      Set.of("size", "isEmpty", "contains", "containsAll", "get", "indexOf", "subList", "toString");
  static final Set<String> MAP =
      Set.of(
          "get",
          "getOrDefault",
          "containsKey",
          "containsValue",
          "keySet",
          "values",
          "size",
          "isEmpty",
          "toString");
  static final Set<String> SCALAR =
      Set.of("intValue", "longValue", "doubleValue", "compareTo", "equals", "toString");

  private MethodAllowlist() {}

  /** Every allowed name, whatever the receiver: what the load-time check accepts. */
  public static Set<String> allNames() {
    Set<String> all = new TreeSet<>();
    all.addAll(STRING);
    all.addAll(COLLECTION);
    all.addAll(MAP);
    all.addAll(SCALAR);
    return all;
  }

  static boolean allows(Object target, String name) {
    if (target instanceof CharSequence) {
      return STRING.contains(name);
    }
    if (target instanceof Collection) {
      return COLLECTION.contains(name);
    }
    if (target instanceof Map) {
      return MAP.contains(name);
    }
    if (target instanceof Number || target instanceof Boolean) {
      return SCALAR.contains(name);
    }
    return false;
  }
}
