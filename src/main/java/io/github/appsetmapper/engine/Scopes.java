package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.expr.Scope.Name;
import io.github.appsetmapper.upstream.call.Deadline;
import io.github.appsetmapper.upstream.call.RequestFailure;
import java.util.HashMap;
import java.util.Map;

/**
 * The scopes of one getparams, by the steps the compiler checked names by (MappingCompiler): what
 * every expression reads, a row's, a request's, a page's and an answer's.
 */
final class Scopes {
  private Scopes() {}

  /** What every expression of the getparams may read: the input, who asked, the vars. */
  static Scope base(
      Map<String, Object> input, String applicationSetName, Map<String, String> vars) {
    // One map, not a copy per name: made for every getparams. Four buckets, as the copies had:
    // the same iteration order of the names (a message listing them reads the same).
    Map<String, Object> values = new HashMap<>(4);
    values.put(Name.INPUT.word(), input);
    values.put(Name.APPLICATION_SET_NAME.word(), applicationSetName);
    values.put(Name.VARS.word(), vars);
    return Scope.of(values);
  }

  /** A row's: the base with the list item and the values enriched so far. */
  static Scope row(Scope base, Row row) {
    return base.withAll(row.values()).with(Name.ITEM, row.item());
  }

  /** A request's: with {@code secret} (read when a template asks) and the first page. */
  static Scope request(Scope scope, CompiledMapping mapping, Deadline deadline) {
    return page(scope.with(Name.SECRET, new SecretsView(mapping.secrets(), deadline)), 1, null);
  }

  /** A request's for one page: {@code number} (1 for the first) and {@code cursor}. */
  static Scope page(Scope request, int number, String cursor) {
    Map<String, Object> page = new HashMap<>();
    page.put("number", number);
    page.put("cursor", cursor);
    return request.with(Name.PAGE, page);
  }

  /** Where an answer is judged ({@code failWhen}, {@code until}, {@code value}): no secret. */
  static Scope response(Scope scope, Page page) throws RequestFailure {
    return scope.without(Name.SECRET, null).with(Name.RESPONSE, page.view());
  }
}
