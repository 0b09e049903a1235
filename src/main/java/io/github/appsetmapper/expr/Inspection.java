package io.github.appsetmapper.expr;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the load-time check found in one parsed expression: sandbox violations, the root names it
 * reads ({@code input}, {@code item}, an enrich name ...) and, for {@code input}, {@code secret}
 * and {@code vars}, the members it reads ({@link #DYNAMIC} when the key is computed), and the names
 * read from an element inside {@code .?[...]} and {@code .![...]} ({@code elementNames}: {@code
 * name} in {@code item.labels.![name]}).
 */
public record Inspection(
    List<String> violations,
    Set<String> roots,
    Map<String, Set<String>> members,
    Set<String> elementNames) {

  public static final String DYNAMIC = "*";

  public boolean reads(String root) {
    return roots.contains(root);
  }
}
