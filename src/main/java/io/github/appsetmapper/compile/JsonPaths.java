package io.github.appsetmapper.compile;

import com.jayway.jsonpath.Configuration;
import com.jayway.jsonpath.JsonPath;
import com.jayway.jsonpath.spi.json.JacksonJsonProvider;
import com.jayway.jsonpath.spi.mapper.JacksonMappingProvider;
import io.github.appsetmapper.json.JsonCodec;
import java.util.ArrayList;
import java.util.List;

/**
 * The one JsonPath configuration (Jackson-backed, default options: a missing definite path throws),
 * never the global {@code Configuration.setDefaults}. Documents are read by {@link JsonCodec}
 * before a path sees them; the provider's own mapper (a private copy of the codec's) only serves
 * the JSON literals a filter may hold.
 */
public final class JsonPaths {
  public static final Configuration CONFIGURATION;

  static {
    var mapper = JsonCodec.mapperCopy();
    CONFIGURATION =
        Configuration.builder()
            .jsonProvider(new JacksonJsonProvider(mapper))
            .mappingProvider(new JacksonMappingProvider(mapper))
            .build();
  }

  private JsonPaths() {}

  /**
   * Why a path's brackets or quotes do not pair up, or null when they do. Jayway's compiler reads
   * an unclosed {@code $.items[} as {@code $['items']}, so this is checked before it.
   */
  static String unbalanced(String path) {
    java.util.Deque<Character> open = new java.util.ArrayDeque<>();
    char quote = 0;
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (quote != 0) {
        if (c == '\\') {
          i++;
        } else if (c == quote) {
          quote = 0;
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '[' || c == '(') {
        open.push(c);
      } else if (c == ']' || c == ')') {
        char expected = c == ']' ? '[' : '(';
        if (open.isEmpty() || open.pop() != expected) {
          return "unexpected '" + c + "' at " + (i + 1);
        }
      }
    }
    if (quote != 0) {
      return "unclosed quote";
    }
    return open.isEmpty() ? null : "unclosed '" + open.peek() + "'";
  }

  /** What one step of a path does, for the checks of the containers it walks. */
  enum Step {
    /** {@code .name}, {@code ['name']}, {@code ['a','b']}: the node must be an object with them. */
    PROPERTY,
    /** {@code [3]}: the node must be a list holding that index. */
    INDEX,
    /** {@code [*]}, {@code .*}, a slice, a filter, several indexes: the node must be a list. */
    WALK,
    /** {@code ..}: a deep scan, which finds what is there wherever it is. */
    SCAN,
    /** {@code .length()} and other functions. */
    FUNCTION
  }

  /** One step of a path as written: what it does, and where it starts and ends in the text. */
  record Token(Step step, int start, int end, List<String> names, int index) {}

  /**
   * The steps of a path as written (after its {@code $}), each with its place in the text, so that
   * the path up to any step can be compiled on its own. Null when the text is not understood (the
   * compiler reports that path on its own).
   */
  static List<Token> tokens(String path) {
    List<Token> out = new ArrayList<>();
    int i = path.startsWith("$") ? 1 : 0;
    int n = path.length();
    while (i < n) {
      char c = path.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (path.startsWith("..", i)) {
        out.add(new Token(Step.SCAN, i, i + 2, List.of(), 0));
        i += 2;
        if (i < n && path.charAt(i) != '[') {
          i = dotted(path, i, i, out);
        }
      } else if (c == '.') {
        i = dotted(path, i, i + 1, out);
      } else if (c == '[') {
        int close = closing(path, i);
        if (close < 0) {
          return null;
        }
        out.add(bracket(path, i, close + 1));
        i = close + 1;
      } else if (i == 0) {
        // "items[*]" is read by JsonPath as "$.items[*]".
        i = dotted(path, i, i, out);
      } else {
        return null;
      }
      if (i < 0) {
        return null;
      }
    }
    return out;
  }

  /** A name after a dot (or a deep scan) at {@code from}; a function when parentheses follow. */
  private static int dotted(String path, int start, int from, List<Token> out) {
    int i = from;
    while (i < path.length() && path.charAt(i) != '.' && path.charAt(i) != '[') {
      if (path.charAt(i) == '(') {
        int close = closing(path, i);
        if (close < 0) {
          return -1;
        }
        out.add(new Token(Step.FUNCTION, start, close + 1, List.of(), 0));
        return close + 1;
      }
      i++;
    }
    String name = path.substring(from, i).strip();
    if (name.isEmpty()) {
      return -1;
    }
    Step step = name.equals("*") ? Step.WALK : Step.PROPERTY;
    out.add(new Token(step, start, i, step == Step.PROPERTY ? List.of(name) : List.of(), 0));
    return i;
  }

  /** The index of the bracket or parenthesis closing the one at {@code open}, or -1. */
  private static int closing(String path, int open) {
    int depth = 0;
    char quote = 0;
    for (int i = open; i < path.length(); i++) {
      char c = path.charAt(i);
      if (quote != 0) {
        if (c == '\\') {
          i++;
        } else if (c == quote) {
          quote = 0;
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '[' || c == '(') {
        depth++;
      } else if (c == ']' || c == ')') {
        depth--;
        if (depth == 0) {
          return i;
        }
      }
    }
    return -1;
  }

  private static Token bracket(String path, int start, int end) {
    String inside = path.substring(start + 1, end - 1).strip();
    if (inside.startsWith("'") || inside.startsWith("\"")) {
      List<String> names = new ArrayList<>();
      for (String part : splitOutsideQuotes(inside)) {
        String p = part.strip();
        names.add(p.length() >= 2 ? p.substring(1, p.length() - 1) : p);
      }
      return new Token(Step.PROPERTY, start, end, List.copyOf(names), 0);
    }
    if (inside.matches("-?\\d+")) {
      return new Token(Step.INDEX, start, end, List.of(), Integer.parseInt(inside));
    }
    return new Token(Step.WALK, start, end, List.of(), 0);
  }

  private static List<String> splitOutsideQuotes(String text) {
    List<String> parts = new ArrayList<>();
    char quote = 0;
    int from = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quote != 0) {
        if (c == '\\') {
          i++;
        } else if (c == quote) {
          quote = 0;
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == ',') {
        parts.add(text.substring(from, i));
        from = i + 1;
      }
    }
    parts.add(text.substring(from));
    return parts;
  }

  /**
   * The path that holds the last step of a definite path ({@code $['meta']} for {@code
   * $['meta']['next']}), or null when that is the body itself.
   */
  static JsonPath holder(JsonPath path) {
    List<Token> tokens = tokens(path.getPath());
    if (tokens == null || tokens.size() < 2) {
      return null;
    }
    return JsonPath.compile(path.getPath().substring(0, tokens.get(tokens.size() - 1).start()));
  }
}
