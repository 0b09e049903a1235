package io.github.appsetmapper.expr;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;

/**
 * Every regex that meets caller or upstream text runs on RE2/J: matching takes time linear in the
 * text, whatever the pattern ({@code (.*,){12}x} included). RE2 has no lookaround and no
 * backreferences; such a pattern is refused with a message naming the construct. A pattern's
 * compiled size is bounded too ({@code ((a{100}){100}){100}} would compile to a million
 * instructions), and matching checks the evaluation's deadline as it reads the text.
 */
public final class Regexes {
  /**
   * An estimate of the compiled program's size, in instructions; above this a pattern is refused.
   */
  static final int MAX_PROGRAM = 20_000;

  private static final Cache<String, Pattern> COMPILED =
      Caffeine.newBuilder().maximumSize(1_000).executor(Runnable::run).build();

  private Regexes() {}

  /** A pattern that is not RE2, or too large. */
  public static final class InvalidPattern extends Exception {
    InvalidPattern(String message) {
      super(message, null, false, false);
    }
  }

  /** Compiles (once per distinct pattern) or explains why not. */
  public static Pattern compile(String regex) throws InvalidPattern {
    Pattern cached = COMPILED.getIfPresent(regex);
    if (cached != null) {
      return cached;
    }
    String problem = problem(regex);
    if (problem != null) {
      throw new InvalidPattern(problem);
    }
    Pattern pattern = Pattern.compile(regex);
    COMPILED.put(regex, pattern);
    return pattern;
  }

  /** Why {@code regex} cannot be used, or null when it can. */
  public static String problem(String regex) {
    String construct = unsupported(regex);
    if (construct != null) {
      return construct
          + " is not supported: patterns are RE2 (linear time), without lookaround or"
          + " backreferences";
    }
    long size = estimatedSize(regex);
    if (size > MAX_PROGRAM) {
      return "the pattern is too large (about "
          + size
          + " instructions once its repeats are expanded, at most "
          + MAX_PROGRAM
          + ")";
    }
    try {
      Pattern.compile(regex);
      return null;
    } catch (PatternSyntaxException e) {
      return e.getDescription() + (e.getPattern() == null ? "" : ": `" + e.getPattern() + "`");
    }
  }

  /** Whether the whole text matches; the deadline is checked as the text is read. */
  public static boolean matches(Pattern pattern, String text) {
    return matcher(pattern, text).matches();
  }

  static Matcher matcher(Pattern pattern, String text) {
    return pattern.matcher(new Watched(text, EvaluationBudget.current()));
  }

  /**
   * The Java (and Perl) constructs RE2 leaves out, named as a mapping author would look for them.
   */
  private static String unsupported(String regex) {
    boolean inClass = false;
    for (int i = 0; i < regex.length(); i++) {
      char c = regex.charAt(i);
      if (c == '\\' && i + 1 < regex.length()) {
        char next = regex.charAt(i + 1);
        if (!inClass && next >= '1' && next <= '9') {
          return "the backreference \\" + next;
        }
        if (!inClass && next == 'k' && i + 2 < regex.length() && regex.charAt(i + 2) == '<') {
          return "the named backreference \\k<...>";
        }
        i++;
        continue;
      }
      if (inClass) {
        inClass = c != ']';
        continue;
      }
      if (c == '[') {
        inClass = true;
        if (i + 1 < regex.length() && regex.charAt(i + 1) == ']') {
          i++;
        }
        continue;
      }
      if (regex.startsWith("(?=", i)) {
        return "the lookahead (?=...)";
      }
      if (regex.startsWith("(?!", i)) {
        return "the negative lookahead (?!...)";
      }
      if (regex.startsWith("(?<=", i)) {
        return "the lookbehind (?<=...)";
      }
      if (regex.startsWith("(?<!", i)) {
        return "the negative lookbehind (?<!...)";
      }
      if (regex.startsWith("(?>", i)) {
        return "the atomic group (?>...)";
      }
      if ((c == '*' || c == '+' || c == '?' || c == '}')
          && i + 1 < regex.length()
          && regex.charAt(i + 1) == '+') {
        return "the possessive quantifier " + c + "+";
      }
    }
    return null;
  }

  /**
   * The compiled size, roughly: each atom counts one, a group the sum of its parts, and a counted
   * repeat {@code {n,m}} multiplies what it repeats by its larger bound (RE2 expands it). An
   * overestimate is fine: it only has to stop the explosive nestings.
   */
  static long estimatedSize(String regex) {
    java.util.ArrayDeque<long[]> frames = new java.util.ArrayDeque<>();
    long[] frame = {0, 0}; // {sum, size of the last atom}
    boolean inClass = false;
    for (int i = 0; i < regex.length(); i++) {
      char c = regex.charAt(i);
      if (inClass) {
        if (c == '\\') {
          i++;
        } else if (c == ']') {
          inClass = false;
        }
        continue;
      }
      switch (c) {
        case '\\' -> {
          i++;
          atom(frame, 1);
        }
        case '[' -> {
          inClass = true;
          if (i + 1 < regex.length() && regex.charAt(i + 1) == '^') {
            i++;
          }
          if (i + 1 < regex.length() && regex.charAt(i + 1) == ']') {
            i++;
          }
          atom(frame, 1);
        }
        case '(' -> {
          frames.push(frame);
          frame = new long[] {0, 0};
        }
        case ')' -> {
          long group = Math.max(1, frame[0]);
          frame = frames.isEmpty() ? new long[] {0, 0} : frames.pop();
          atom(frame, group);
        }
        case '{' -> {
          int close = regex.indexOf('}', i);
          long count = close < 0 ? -1 : repeatBound(regex.substring(i + 1, close));
          if (count < 0) {
            atom(frame, 1); // a literal brace
          } else {
            long last = frame[1];
            frame[0] = saturated(frame[0] + saturated(last * Math.max(0, count - 1)));
            frame[1] = saturated(last * count);
            i = close;
          }
        }
        case '*', '+', '?', '|', '^', '$' -> frame[0] = saturated(frame[0] + 1);
        default -> atom(frame, 1);
      }
    }
    while (!frames.isEmpty()) {
      long group = frame[0];
      frame = frames.pop();
      atom(frame, group);
    }
    return frame[0];
  }

  private static void atom(long[] frame, long size) {
    frame[0] = saturated(frame[0] + size);
    frame[1] = size;
  }

  /** The larger bound of {@code n}, {@code n,} or {@code n,m}; -1 when it is not a repeat. */
  private static long repeatBound(String inside) {
    int comma = inside.indexOf(',');
    String low = comma < 0 ? inside : inside.substring(0, comma);
    String high = comma < 0 ? inside : inside.substring(comma + 1);
    if (!digits(low) || !(high.isEmpty() || digits(high))) {
      return -1;
    }
    long lowValue = Long.parseLong(low);
    return high.isEmpty() ? lowValue + 1 : Math.max(lowValue, Long.parseLong(high));
  }

  private static boolean digits(String text) {
    if (text.isEmpty() || text.length() > 6) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      if (!Character.isDigit(text.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  private static long saturated(long value) {
    return value < 0 || value > Integer.MAX_VALUE ? Integer.MAX_VALUE : value;
  }

  /**
   * The text, read by the regex engine one character at a time: the deadline is checked as it goes.
   */
  private record Watched(String text, EvaluationBudget budget) implements CharSequence {
    @Override
    public int length() {
      return text.length();
    }

    @Override
    public char charAt(int index) {
      budget.tick();
      return text.charAt(index);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return text.subSequence(start, end);
    }

    @Override
    public String toString() {
      return text;
    }
  }
}
