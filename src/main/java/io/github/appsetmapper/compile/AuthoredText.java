package io.github.appsetmapper.compile;

import io.github.appsetmapper.config.Expr;
import io.github.appsetmapper.config.InputSpec;
import io.github.appsetmapper.config.MappingSpec;
import io.github.appsetmapper.config.Pos;
import io.github.appsetmapper.config.Problems;
import io.github.appsetmapper.config.RequestOptionTable;
import io.github.appsetmapper.config.RequestOptions;
import io.github.appsetmapper.config.SecretSpec;
import io.github.appsetmapper.config.VarSpec;
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

  /** What a text taken as written is fixed with. */
  static final String VALUE = "write the value itself";

  static void check(MappingSpec spec, Problems problems) {
    walk(spec, spec.pos(), problems, VALUE);
  }

  /**
   * The fix of a default in another syntax. A var's is shipped text whatever {@code --var} says at
   * this load (another deployment, or a run without it, reads the default), so it is refused even
   * when overridden; the line says both ways out.
   */
  private static String fix(Record record, String component, String otherwise) {
    if (!component.equals("defaultValue")) {
      return otherwise;
    }
    if (record instanceof VarSpec var) {
      return VALUE
          + ", or leave the default out and give the value at deploy time with --var "
          + var.name()
          + "=... (a default is shipped as written, even where --var overrides it)";
    }
    if (record instanceof InputSpec) {
      return VALUE + ", or leave the default out: the caller's input gives it";
    }
    return otherwise;
  }

  private static void walk(Object value, Pos at, Problems problems, String fix) {
    if (value == null || value instanceof Expr) {
      return;
    }
    if (value instanceof String text) {
      say(at, AuthorSlips.inPlainText(text, false, fix), problems);
    } else if (value instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        Pos here = posOf(entry.getValue(), at);
        if (entry.getKey() instanceof String key) {
          say(here, AuthorSlips.inPlainText(key, true, fix), problems);
        }
        walk(entry.getValue(), here, problems, fix);
      }
    } else if (value instanceof Collection<?> items) {
      for (Object item : items) {
        walk(item, posOf(item, at), problems, fix);
      }
    } else if (value instanceof RequestOptions options) {
      for (var option : RequestOptionTable.ALL) {
        walk(options.get(option), at, problems, fix);
      }
    } else if (value instanceof Record record) {
      Pos own = posOf(record, at);
      for (RecordComponent component : record.getClass().getRecordComponents()) {
        if (!PROSE.contains(component.getName()) && !template(record, component.getName())) {
          walk(read(component, record), own, problems, fix(record, component.getName(), fix));
        }
      }
    }
  }

  /**
   * A text a template compiles from though it is no {@link Expr}: a secret's file path, rendered
   * from vars, whose slip's fix is a {@code #{vars.x}} (checked where it compiles).
   */
  private static boolean template(Record record, String component) {
    return record instanceof SecretSpec && component.equals("file");
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
