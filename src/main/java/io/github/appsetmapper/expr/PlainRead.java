package io.github.appsetmapper.expr;

import java.util.Map;
import org.springframework.expression.Expression;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.CompoundExpression;
import org.springframework.expression.spel.ast.Literal;
import org.springframework.expression.spel.ast.PropertyOrFieldReference;
import org.springframework.expression.spel.standard.SpelExpression;

/**
 * The commonest expressions, read without the SpEL interpreter: a literal ({@code '3'}, {@code 3})
 * and a chain of names read through maps ({@code input.name}, {@code applicationSetName}). The
 * result is the interpreter's: a literal is its value, a name on a map is {@code map.get(name)}
 * (what {@link LenientMapAccessor}, the first accessor, reads). At any step that is not a map
 * (null, a list, a map entry) the interpreter evaluates the whole expression instead, with its own
 * rules and messages. Nothing here calls a method or builds anything.
 */
public final class PlainRead {
  private final String[] names;
  private final Object literal;

  private PlainRead(String[] names, Object literal) {
    this.names = names;
    this.literal = literal;
  }

  /** The plain read of {@code expression}, or null when it is anything else. */
  public static PlainRead of(Expression expression) {
    if (!(expression instanceof SpelExpression spel)) {
      return null;
    }
    SpelNode ast = spel.getAST();
    if (ast instanceof Literal literal) {
      return new PlainRead(null, literal.getLiteralValue().getValue());
    }
    if (ast instanceof PropertyOrFieldReference name) {
      return new PlainRead(new String[] {name.getName()}, null);
    }
    if (ast instanceof CompoundExpression compound) {
      String[] names = new String[compound.getChildCount()];
      for (int i = 0; i < names.length; i++) {
        if (!(compound.getChild(i) instanceof PropertyOrFieldReference name)) {
          return null;
        }
        names[i] = name.getName();
      }
      return new PlainRead(names, null);
    }
    return null;
  }

  /** The value, or {@link #UNREAD} where the interpreter must evaluate it. */
  Object read(Map<String, Object> root) {
    if (names == null) {
      return literal;
    }
    Object at = root;
    for (String name : names) {
      if (!(at instanceof Map<?, ?> map)) {
        return UNREAD;
      }
      at = map.get(name);
    }
    return at;
  }

  static final Object UNREAD = new Object();
}
