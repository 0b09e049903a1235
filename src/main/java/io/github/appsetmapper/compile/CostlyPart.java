package io.github.appsetmapper.compile;

import io.github.appsetmapper.text.Printable;
import org.springframework.expression.spel.SpelEvaluationException;
import org.springframework.expression.spel.SpelMessage;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.CompoundExpression;
import org.springframework.expression.spel.ast.Projection;
import org.springframework.expression.spel.ast.Selection;
import org.springframework.expression.spel.standard.SpelExpression;

/**
 * When an evaluation spends SpEL's bound of operations: the part of the expression that spent it
 * (the innermost selection or projection where it stopped, with the chain that leads to it),
 * shortened, and the way out, so that the author need not guess which of a long expression's loops
 * to move into a {@code let}.
 */
public final class CostlyPart {
  private static final int MAX = 80;

  private CostlyPart() {}

  /** Whether {@code e} is SpEL's "exceeded the threshold of ... operations". */
  public static boolean spentOperations(Throwable e) {
    return e instanceof SpelEvaluationException spel
        && spel.getMessageCode() == SpelMessage.MAX_OPERATIONS_EXCEEDED;
  }

  /**
   * The hint for a failure of {@code expression} that spent a budget: where ({@code null} when the
   * failure is another), and the way out.
   */
  public static String hint(CompiledExpression expression, Throwable e) {
    String part = null;
    if (spentOperations(e) && expression.expression() instanceof SpelExpression spel) {
      int at = ((SpelEvaluationException) e).getPosition();
      SpelNode loop = at < 0 ? null : innermostLoop(spel.getAST(), null, null, at);
      if (loop != null) {
        part = shortened(SourceSpans.text(expression.source().text(), loop));
      }
    }
    return (part == null ? "" : "; the costly part: '" + part + "'")
        + "; compute a part that repeats once per row with a let (each let has its own budget),"
        + " or narrow the list it walks";
  }

  /** The loop (with its chain) whose text holds {@code at}, the innermost one. */
  private static SpelNode innermostLoop(SpelNode node, SpelNode chain, SpelNode found, int at) {
    if ((node instanceof Selection || node instanceof Projection) && holds(node, at)) {
      found = chain != null ? chain : node;
    }
    SpelNode childChain = node instanceof CompoundExpression ? node : null;
    for (int i = 0; i < node.getChildCount(); i++) {
      found = innermostLoop(node.getChild(i), childChain, found, at);
    }
    return found;
  }

  /**
   * Whether {@code at} falls in the text of {@code node}'s tree (SpEL keeps each token's place).
   */
  private static boolean holds(SpelNode node, int at) {
    int[] span = {Integer.MAX_VALUE, -1};
    extent(node, span);
    return span[0] <= at && at <= span[1];
  }

  private static void extent(SpelNode node, int[] span) {
    span[0] = Math.min(span[0], node.getStartPosition());
    span[1] = Math.max(span[1], node.getEndPosition());
    for (int i = 0; i < node.getChildCount(); i++) {
      extent(node.getChild(i), span);
    }
  }

  private static String shortened(String text) {
    return Printable.cut(text, MAX);
  }
}
