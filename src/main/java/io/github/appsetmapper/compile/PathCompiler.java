package io.github.appsetmapper.compile;

import com.jayway.jsonpath.InvalidPathException;
import com.jayway.jsonpath.JsonPath;
import io.github.appsetmapper.config.Expr;
import io.github.appsetmapper.config.Problems;

/** A mapping's JsonPaths compiled once: never a template, balanced, definite where one value. */
final class PathCompiler {
  private final Problems problems;

  PathCompiler(Problems problems) {
    this.problems = problems;
  }

  /** A rows path with its container checks; a path that cannot be checked is a load error. */
  RowPath rowPath(Expr expr, boolean missingIsEmpty, String field) {
    JsonPath path = jsonPath(expr);
    if (path == null) {
      return null;
    }
    try {
      return RowPath.compile(expr.text(), path, missingIsEmpty);
    } catch (IllegalArgumentException e) {
      problems.add(expr.pos(), field + " '" + expr.text() + "': " + e.getMessage());
      return null;
    }
  }

  JsonPath definitePath(Expr expr, String field) {
    JsonPath path = jsonPath(expr);
    if (path != null && !path.isDefinite()) {
      problems.add(expr.pos(), "'" + field + "' must be a definite JsonPath to one value");
    }
    return path;
  }

  JsonPath jsonPath(Expr expr) {
    if (expr == null) {
      return null;
    }
    if (expr.text().contains("#{")) {
      // A value spliced into a path could carry path syntax (']', '..', a filter): never a hole.
      problems.add(
          expr.pos(),
          "a JsonPath is not a template: '#{' cannot be used in '"
              + expr.text()
              + "'; select the whole object and choose in an expression, as an enrich `value:"
              + " response.body.entries[input.chart]`, or list.entries with `filter: item.key =="
              + " input.chart`");
      return null;
    }
    String unbalanced = JsonPaths.unbalanced(expr.text());
    if (unbalanced != null) {
      problems.add(expr.pos(), "invalid JsonPath '" + expr.text() + "': " + unbalanced);
      return null;
    }
    try {
      return JsonPath.compile(expr.text());
    } catch (InvalidPathException | IllegalArgumentException e) {
      problems.add(expr.pos(), "invalid JsonPath '" + expr.text() + "': " + e.getMessage());
      return null;
    }
  }

  /** What holds the value a definite path names (null: the body), which must exist. */
  static JsonPath holder(JsonPath path) {
    return path == null || !path.isDefinite() ? null : JsonPaths.holder(path);
  }
}
