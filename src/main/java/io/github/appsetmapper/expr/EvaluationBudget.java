package io.github.appsetmapper.expr;

/**
 * What expressions on one thread may spend: the mapping's deadline (set by the engine for the
 * answer being computed), and per evaluation the size of what it builds: every string a method, a
 * function or an operator ({@code +}, {@code *}) makes, and every element a projection or an inline
 * list or map holds, counted as the JSON text it would write (a string its length, a list or map
 * what its elements count, so a list holding the same large list a thousand times counts a thousand
 * times). {@link BuildCounting} instruments the parsed expressions so that each is counted as it is
 * built, one element or one string at a time. SpEL bounds its operators too (a concatenation
 * 100,000 characters when interpreted, a repeat 256, 10,000 operations).
 *
 * <p>Thread-confined state: SpEL hands a method only the shared evaluation context, so the budget
 * of the evaluation in progress is found by thread. The engine opens a deadline with {@link
 * #until(long)} on each thread that evaluates for an answer and closes it when done.
 */
public final class EvaluationBudget {
  /** The longest string an expression may build. */
  public static final int MAX_STRING_CHARS = 1024 * 1024;

  /** What all strings built by one evaluation may hold together. */
  public static final long MAX_BUILT_CHARS = 8L * MAX_STRING_CHARS;

  private static final ThreadLocal<EvaluationBudget> CURRENT =
      ThreadLocal.withInitial(EvaluationBudget::new);

  private long deadlineNanos = Long.MAX_VALUE;
  private java.time.Instant requestTime;
  private long built;
  private long objects;
  private int ticks;

  /** Whether a slice is open on this thread ({@link #slice}), and the step that ends it. */
  private boolean slicing;

  private int sliceEnd;

  /** Whether the open slice ran out: sticky until {@link #endSlice}, as a passed deadline is. */
  private boolean spent;

  private EvaluationBudget() {}

  /** A deadline for this thread's evaluations, until closed. */
  public interface Scope extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * Until the scope closes, evaluations on this thread fail once {@link System#nanoTime()} passes
   * {@code endNanos} ({@link Long#MAX_VALUE}: no deadline).
   */
  public static Scope until(long endNanos) {
    return until(endNanos, CURRENT.get().requestTime);
  }

  /**
   * As {@link #until(long)}, with the time of the request being answered: what {@code #now()} and
   * the date functions measure against (null: the system clock's, read when asked).
   */
  public static Scope until(long endNanos, java.time.Instant requestTime) {
    EvaluationBudget budget = CURRENT.get();
    long previous = budget.deadlineNanos;
    java.time.Instant previousTime = budget.requestTime;
    budget.deadlineNanos = endNanos;
    budget.requestTime = requestTime;
    return () -> {
      budget.deadlineNanos = previous;
      budget.requestTime = previousTime;
    };
  }

  /** The time of the request this thread evaluates for (one answer sees one "now"). */
  public static java.time.Instant requestTime() {
    java.time.Instant time = CURRENT.get().requestTime;
    return time != null ? time : java.time.Instant.now();
  }

  static EvaluationBudget current() {
    return CURRENT.get();
  }

  /**
   * Until {@link #endSlice}, evaluations on this thread stop once they have taken about {@code
   * steps} more steps (the steps the deadline machinery counts, looked at every 1,024th), or at the
   * first costly step (an operation on a value past {@link #CHEAP_SIZE} or {@link #CHEAP_DIGITS}, a
   * string built past {@link #CHEAP_SIZE}), whichever comes first: they fail as if the deadline had
   * run out, and keep failing at every check. For work that must stay small where it runs (a
   * getparams answered on the server's IO thread), which is abandoned and run again elsewhere when
   * the slice ran out. Allocates nothing.
   */
  public static void slice(int steps) {
    EvaluationBudget budget = CURRENT.get();
    budget.slicing = true;
    budget.spent = false;
    budget.sliceEnd = budget.ticks + steps;
  }

  /**
   * Whether this thread's open slice ran out ({@link #slice}): what ran under it is to be
   * discarded.
   */
  public static boolean sliceSpent() {
    return CURRENT.get().spent;
  }

  /** Closes the slice {@link #slice} opened on this thread. */
  public static void endSlice() {
    EvaluationBudget budget = CURRENT.get();
    budget.slicing = false;
    budget.spent = false;
  }

  /**
   * Fails when this thread's slice ran out ({@link #slice}); for a step outside expressions that
   * must not run once it has (a guard that counts its refusals), nothing when no slice is open.
   */
  public static void checkSlice() {
    EvaluationBudget budget = CURRENT.get();
    if (budget.slicing) {
      budget.checkDeadline();
    }
  }

  /** The slice ran out: this run is abandoned (see {@link #slice}). */
  private ExpressionLimitException outOfSlice() {
    spent = true;
    return new ExpressionLimitException(
        "the evaluation outgrew the inline step slice; it runs again on a worker", true);
  }

  /**
   * What the last evaluation on this thread built, in characters as {@link #charge} counts them: an
   * upper bound of the new text its value can hold (0: it only read what already existed).
   */
  public static long builtChars() {
    return CURRENT.get().built;
  }

  /**
   * How many values (strings, numbers, lists, maps, elements) the last evaluation on this thread
   * built: each costs its object's header beside its characters, which is most of what a split into
   * half a million one-character parts keeps (charged as characters alone, 3 MB where the heap held
   * 28 MB: ten such rows ended a 256 MiB JVM within the default budget).
   */
  public static long builtObjects() {
    return CURRENT.get().objects;
  }

  /** A new evaluation: nothing built yet; it does not start past the deadline. */
  void begin() {
    built = 0;
    objects = 0;
    checkDeadline();
  }

  /** Before building a string of {@code chars}: refuses it when it would be too large. */
  void reserve(long chars, String what) {
    if (slicing && chars > CHEAP_SIZE) {
      throw outOfSlice();
    }
    if (chars > MAX_STRING_CHARS) {
      throw new ExpressionLimitException(
          what
              + " would build a string of "
              + chars
              + " characters, more than "
              + MAX_STRING_CHARS
              + " allowed");
    }
    if (built + chars > MAX_BUILT_CHARS) {
      throw overBudget(what);
    }
  }

  /**
   * What each value built counts beyond its JSON text: its object's header. Counted as text alone,
   * two splits of a 1 MB text into one-character parts were 6 MB of an 8 MB allowance while the
   * heap held 110 MB, and ten such getparams at once ended a 256 MiB JVM (an outside tester's
   * find).
   */
  static final int OBJECT_UNITS = 16;

  /** The most digits a number an operator builds may have (inputs hold at most 1,000). */
  public static final int MAX_NUMBER_DIGITS = 10_000;

  /**
   * A value built (a projection's element, an inline list or map, a string or number an operator
   * made): counted as the JSON text it would write, shared parts once for each place they appear.
   * The walk stops as soon as the allowance is spent, so it costs at most the allowance.
   */
  void charge(Object value, String what) {
    if (value instanceof CharSequence text) {
      reserve(text.length(), what);
      add(text.length() + 2L + OBJECT_UNITS, what);
      objects++;
      return;
    }
    java.util.ArrayDeque<Object> todo = new java.util.ArrayDeque<>();
    todo.push(value == null ? Boolean.FALSE : value);
    while (!todo.isEmpty()) {
      Object next = todo.pop();
      objects++;
      add(OBJECT_UNITS, what);
      if (next instanceof CharSequence text) {
        add(text.length() + 2L, what);
      } else if (next instanceof java.util.Map<?, ?> map) {
        add(2L + map.size(), what);
        for (java.util.Map.Entry<?, ?> entry : map.entrySet()) {
          before(entry.getKey(), null); // a computed key of 10,000 digits takes ms as text
          add(String.valueOf(entry.getKey()).length() + 3L, what);
          todo.push(entry.getValue() == null ? Boolean.FALSE : entry.getValue());
        }
      } else if (next instanceof java.util.Collection<?> list) {
        add(2L + list.size(), what);
        for (Object element : list) {
          todo.push(element == null ? Boolean.FALSE : element);
        }
      } else if (next instanceof Object[] array) {
        add(2L + array.length, what);
        for (Object element : array) {
          todo.push(element == null ? Boolean.FALSE : element);
        }
      } else {
        add(BuiltDigits.of(next, what), what);
      }
    }
  }

  private void add(long units, String what) {
    if (built + units > MAX_BUILT_CHARS) {
      throw overBudget(what);
    }
    built += units;
    tick();
  }

  private static ExpressionLimitException overBudget(String what) {
    return new ExpressionLimitException(
        what
            + " would take what this expression builds past "
            + MAX_BUILT_CHARS
            + " characters (strings, and lists and maps counted as the JSON they would write,"
            + " and 16 more for each value)",
        false,
        true);
  }

  /** A string built: counted, refused when too large. */
  String built(String text, String what) {
    reserve(text.length(), what);
    built += text.length();
    checkDeadline();
    return text;
  }

  /**
   * The most digits (or the largest scale) of a big integer or exact decimal an operation computes
   * with between two checks of the deadline: past it, a product, a quotient or a comparison takes
   * microseconds to milliseconds (a product of two 10,000-digit numbers about 2 ms, an exact
   * quotient of them tens), so it checks before it runs rather than every 1,024th.
   */
  static final int CHEAP_DIGITS = 300;

  /** The longest text, or the most elements, an operation reads between two checks. */
  static final int CHEAP_SIZE = 65_536;

  /**
   * Before an operation on {@code a} and {@code b} (either may be null): checks the deadline when
   * either is costly to compute with ({@link #costly}); a cheap one is counted by SpEL's count of
   * operations ({@link OperationTicks}), every 1,024th checking it.
   */
  void before(Object a, Object b) {
    if (costly(a) || costly(b)) {
      costlyStep();
    }
  }

  /**
   * Before a step that may take milliseconds: checks the deadline; under a slice ({@link #slice})
   * the slice ends here, the step is left to the run that has no slice.
   */
  void costlyStep() {
    if (slicing) {
      throw outOfSlice();
    }
    checkDeadline();
  }

  /**
   * Whether an operation on {@code value} may take more than a few microseconds: a big integer or
   * exact decimal past {@link #CHEAP_DIGITS} digits or scale, a text or a list or map past {@link
   * #CHEAP_SIZE}. Allocates nothing (a decimal's precision is kept by the decimal).
   */
  static boolean costly(Object value) {
    if (value instanceof java.math.BigInteger big) {
      return big.bitLength() > CHEAP_DIGITS * 3;
    }
    if (value instanceof java.math.BigDecimal decimal) {
      return Math.abs(decimal.scale()) > CHEAP_DIGITS || decimal.precision() > CHEAP_DIGITS;
    }
    if (value instanceof CharSequence text) {
      return text.length() > CHEAP_SIZE;
    }
    if (value instanceof java.util.Collection<?> list) {
      return list.size() > CHEAP_SIZE;
    }
    if (value instanceof java.util.Map<?, ?> map) {
      return map.size() > CHEAP_SIZE;
    }
    return value instanceof Object[] array && array.length > CHEAP_SIZE;
  }

  /**
   * Before a step outside an expression on values expressions computed (a sort comparing two keys,
   * a key or a parameter made into text): the deadline checked when either is costly ({@link
   * #costly}: a sort of 10,000-digit keys compares each pair in about a tenth of a millisecond, and
   * ran seconds past the deadline), and every 1,024th step.
   */
  public static void step(Object a, Object b) {
    EvaluationBudget budget = CURRENT.get();
    budget.before(a, b);
    budget.tick();
  }

  /**
   * Checks the deadline now (a clock read): before a step outside expressions whose work grows with
   * the data it is handed and that is not counted elsewhere, such as the label or reason of a
   * dropped row (a label's text is redacted whole before it is cut).
   */
  public static void check() {
    CURRENT.get().checkDeadline();
  }

  /**
   * The steps of one walk or write over values on this thread (an answer's JSON, the texts of a
   * row's values): each value is a {@link #step}, this thread's budget looked up once for the walk
   * rather than once per value.
   */
  public static io.github.appsetmapper.json.WritePace pace() {
    EvaluationBudget budget = CURRENT.get();
    return value -> {
      budget.before(value, null);
      budget.tick();
    };
  }

  /** Called in loops over text or elements: checks the deadline every so often, cheaply. */
  void tick() {
    if ((++ticks & 1023) == 0) {
      checkDeadline();
    }
  }

  void checkDeadline() {
    if (slicing && (spent || ticks - sliceEnd >= 0)) {
      throw outOfSlice();
    }
    if (deadlineNanos != Long.MAX_VALUE && System.nanoTime() - deadlineNanos > 0) {
      throw new ExpressionLimitException("the deadline ran out while evaluating", true);
    }
  }
}
