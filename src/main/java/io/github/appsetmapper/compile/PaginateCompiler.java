package io.github.appsetmapper.compile;

import com.jayway.jsonpath.JsonPath;
import io.github.appsetmapper.config.PaginateSpec;
import io.github.appsetmapper.config.Problems;
import io.github.appsetmapper.expr.Scope;

/** A listing's {@code paginate} compiled: one {@link CompiledPaginate} per mode. */
final class PaginateCompiler {
  private PaginateCompiler() {}

  static CompiledPaginate compile(
      PaginateSpec paginate,
      Scope requestScope,
      PathCompiler paths,
      ExpressionCompiler expressions,
      Problems problems) {
    if (paginate == null) {
      return null;
    }
    CompiledPaginate.Limits limits =
        new CompiledPaginate.Limits(paginate.maxPages(), paginate.stopAtMax());
    switch (paginate.mode()) {
      case LINK_HEADER -> {
        return new CompiledPaginate.LinkHeader(paginate.linkRel(), limits);
      }
      case NEXT_URL -> {
        JsonPath next = paths.jsonPath(paginate.next());
        if (next != null && !next.isDefinite()) {
          problems.add(paginate.next().pos(), "'next' must be a definite JsonPath to one URL");
        }
        return new CompiledPaginate.NextUrl(next, PathCompiler.holder(next), limits);
      }
      case CURSOR -> {
        PaginateSpec.Cursor cursor = paginate.cursor();
        JsonPath from = paths.definitePath(cursor.from(), "from");
        Scope responseScope = MappingCompiler.responseScope(requestScope);
        return new CompiledPaginate.Cursor(
            cursor.param(),
            from,
            PathCompiler.holder(from),
            expressions.expression(cursor.until(), responseScope),
            limits);
      }
      default -> {
        PaginateSpec.Page page = paginate.page();
        return new CompiledPaginate.Numbered(
            page.param(),
            page.start(),
            page.size(),
            page.sizeParam(),
            page.endStatus(),
            page.stopOnShortPage(),
            limits);
      }
    }
  }
}
