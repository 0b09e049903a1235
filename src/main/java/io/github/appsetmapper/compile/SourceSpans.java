package io.github.appsetmapper.compile;

import org.springframework.expression.spel.SpelNode;

/**
 * The text of a part of an expression as its author wrote it. SpEL keeps only each token's place,
 * so the span runs from the first to the last token of the part's tree, then takes the closing
 * brackets the part opened; when that does not come out balanced, SpEL's own rendering is used.
 */
final class SourceSpans {
  private SourceSpans() {}

  static String text(String source, SpelNode node) {
    int[] span = {Integer.MAX_VALUE, -1};
    extent(node, span);
    if (span[0] < 0 || span[1] > source.length() || span[0] >= span[1]) {
      return node.toStringAST();
    }
    int end = span[1];
    int open = unclosed(source.substring(span[0], end));
    while (open > 0) {
      int next = end;
      while (next < source.length() && Character.isWhitespace(source.charAt(next))) {
        next++;
      }
      if (next >= source.length() || (source.charAt(next) != ')' && source.charAt(next) != ']')) {
        break;
      }
      end = next + 1;
      open--;
    }
    String text = source.substring(span[0], end).strip();
    return open == 0 && unclosed(text) == 0 ? text : node.toStringAST();
  }

  private static void extent(SpelNode node, int[] span) {
    span[0] = Math.min(span[0], node.getStartPosition());
    span[1] = Math.max(span[1], node.getEndPosition());
    for (int i = 0; i < node.getChildCount(); i++) {
      extent(node.getChild(i), span);
    }
  }

  /** Brackets opened and not closed, outside quoted text; -1 when one closes more than opened. */
  private static int unclosed(String text) {
    int depth = 0;
    boolean quoted = false;
    char quote = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quoted) {
        quoted = c != quote;
      } else if (c == '\'' || c == '"') {
        quoted = true;
        quote = c;
      } else if (c == '(' || c == '[' || c == '{') {
        depth++;
      } else if (c == ')' || c == ']' || c == '}') {
        if (--depth < 0) {
          return -1;
        }
      }
    }
    return quoted ? -1 : depth;
  }
}
