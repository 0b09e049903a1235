package io.github.appsetmapper.compile;

import io.github.appsetmapper.config.Expr;
import io.github.appsetmapper.config.MappingSpec;
import io.github.appsetmapper.config.Pos;
import io.github.appsetmapper.config.Problems;
import io.github.appsetmapper.config.RequestOptionTable;
import io.github.appsetmapper.config.RequestOptions;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.Map;
import java.util.Set;

/**
 * One pass over every text a mapping holds for another tool's template syntax ({@link
 * AuthorSlips}): it walks the records of the mapping format by reflection, so a field added later
 * is walked too. An {@link Expr} is checked where it compiles, as an expression or a template
 * ({@link ExpressionCompiler}), since only there are its holes, literals and string literals told
 * apart; everything else is text taken as written (query and body keys, header names, var and input
 * defaults, scopes, names), checked here whole, map keys included, at any depth.
 */
final class AuthoredText {
  /** Record components that are prose: never sent, never evaluated. */
  static final Set<String> PROSE = Set.of("description");

  private AuthoredText() {}

  static void check(MappingSpec spec, Problems problems) {
    walk(spec, spec.pos(), problems);
  }

  private static void walk(Object value, Pos at, Problems problems) {
    if (value == null || value instanceof Expr) {
      return;
    }
    if (value instanceof String text) {
      say(at, AuthorSlips.inPlainText(text, false), problems);
    } else if (value instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        Pos here = posOf(entry.getValue(), at);
        if (entry.getKey() instanceof String key) {
          say(here, AuthorSlips.inPlainText(key, true), problems);
        }
        walk(entry.getValue(), here, problems);
      }
    } else if (value instanceof Collection<?> items) {
      for (Object item : items) {
        walk(item, posOf(item, at), problems);
      }
    } else if (value instanceof RequestOptions options) {
      for (var option : RequestOptionTable.ALL) {
        walk(options.get(option), at, problems);
      }
    } else if (value instanceof Record record) {
      Pos own = posOf(record, at);
      for (RecordComponent component : record.getClass().getRecordComponents()) {
        if (!PROSE.contains(component.getName())) {
          walk(read(component, record), own, problems);
        }
      }
    }
  }

  private static void say(Pos at, String problem, Problems problems) {
    if (problem != null) {
      problems.add(at, problem);
    }
  }

  private static Pos posOf(Object value, Pos otherwise) {
    if (value instanceof Expr expr && expr.pos() != null) {
      return expr.pos();
    }
    if (value instanceof Record record) {
      for (RecordComponent component : record.getClass().getRecordComponents()) {
        if (component.getType() == Pos.class && read(component, record) instanceof Pos pos) {
          return pos;
        }
      }
    }
    return otherwise;
  }

  private static Object read(RecordComponent component, Record record) {
    try {
      var accessor = component.getAccessor();
      accessor.setAccessible(true);
      return accessor.invoke(record);
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("cannot read " + component, e);
    }
  }
}
