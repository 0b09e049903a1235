package io.github.appsetmapper.expr;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Map;
import org.springframework.expression.Expression;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.CompoundExpression;
import org.springframework.expression.spel.ast.FunctionReference;
import org.springframework.expression.spel.ast.Literal;
import org.springframework.expression.spel.ast.PropertyOrFieldReference;
import org.springframework.expression.spel.standard.SpelExpression;

/**
 * The commonest expressions, read without the SpEL interpreter: a literal ({@code '3'}, {@code 3}),
 * a chain of names read through maps ({@code input.name}, {@code applicationSetName}) and a {@code
 * #function} of text arguments that are such reads ({@code #upper(input.name)}). The result is the
 * interpreter's: a literal is its value, a name on a map is {@code map.get(name)} (what {@link
 * LenientMapAccessor}, the first accessor, reads), a function is the same {@link Method} the
 * interpreter calls with the same arguments (text given to a text parameter, which SpEL's
 * conversion hands over as it is). At any step that is not a map (null, a list, a map entry), an
 * argument that is not text, or a function that throws, the interpreter evaluates the whole
 * expression instead, with its own rules and messages (the functions are pure: calling one again
 * gives the same failure). Nothing here calls any other method or builds anything.
 */
public final class PlainRead {
  /** What {@code #name} calls: the functions the evaluation context holds, nothing else. */
  private static final Map<String, Method> FUNCTIONS = Functions.all();

  private final String[] names;
  private final Object literal;
  private final Method function;
  private final PlainRead[] arguments;

  private PlainRead(String[] names, Object literal, Method function, PlainRead[] arguments) {
    this.names = names;
    this.literal = literal;
    this.function = function;
    this.arguments = arguments;
  }

  /** The plain read of {@code expression}, or null when it is anything else. */
  public static PlainRead of(Expression expression) {
    if (!(expression instanceof SpelExpression spel)) {
      return null;
    }
    SpelNode ast = spel.getAST();
    if (ast instanceof FunctionReference call) {
      return call(call);
    }
    return read(ast);
  }

  /** A literal or a chain of names, or null. */
  private static PlainRead read(SpelNode ast) {
    if (ast instanceof Literal literal) {
      return new PlainRead(null, literal.getLiteralValue().getValue(), null, null);
    }
    if (ast instanceof PropertyOrFieldReference name) {
      return new PlainRead(new String[] {name.getName()}, null, null, null);
    }
    if (ast instanceof CompoundExpression compound) {
      String[] names = new String[compound.getChildCount()];
      for (int i = 0; i < names.length; i++) {
        if (!(compound.getChild(i) instanceof PropertyOrFieldReference name)) {
          return null;
        }
        names[i] = name.getName();
      }
      return new PlainRead(names, null, null, null);
    }
    return null;
  }

  /**
   * {@code #name(a, b)}: a function whose parameters are all text (not varargs), each argument a
   * literal text or a chain of names; else null.
   */
  private static PlainRead call(FunctionReference call) {
    String text = call.toStringAST(); // "#upper(input.name)"
    int open = text.indexOf('(');
    Method method = open > 1 ? FUNCTIONS.get(text.substring(1, open)) : null;
    if (method == null
        || method.isVarArgs()
        || !Modifier.isStatic(method.getModifiers())
        || method.getParameterCount() != call.getChildCount()) {
      return null;
    }
    PlainRead[] arguments = new PlainRead[call.getChildCount()];
    for (int i = 0; i < arguments.length; i++) {
      arguments[i] = read(call.getChild(i));
      if (method.getParameterTypes()[i] != String.class
          || arguments[i] == null
          || (arguments[i].names == null && !(arguments[i].literal instanceof String))) {
        return null;
      }
    }
    return new PlainRead(null, null, method, arguments);
  }

  /** The value, or {@link #UNREAD} where the interpreter must evaluate it. */
  Object read(Map<String, Object> root) {
    if (function != null) {
      return called(root);
    }
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

  private Object called(Map<String, Object> root) {
    Object[] values = new Object[arguments.length];
    for (int i = 0; i < values.length; i++) {
      Object value = arguments[i].read(root);
      if (!(value instanceof String)) {
        return UNREAD; // null, not text, or not read plainly: the interpreter converts or refuses
      }
      values[i] = value;
    }
    try {
      return function.invoke(null, values);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return UNREAD; // the interpreter calls it again and fails in its own words
    }
  }

  static final Object UNREAD = new Object();
}
