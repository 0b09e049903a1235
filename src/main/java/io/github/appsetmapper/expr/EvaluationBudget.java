package io.github.appsetmapper.expr;

/**
 * What expressions on one thread may spend: the mapping's deadline (set by the engine for the
 * answer being computed), and per evaluation the characters that strings built by methods and
 * functions may hold. SpEL's own operators are bounded by SpEL itself (a concatenation at most
 * 100,000 characters, a repeat 256, 10,000 operations per evaluation).
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
  private int ticks;

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

  /** A new evaluation: nothing built yet; it does not start past the deadline. */
  void begin() {
    built = 0;
    checkDeadline();
  }

  /** Before building a string of {@code chars}: refuses it when it would be too large. */
  void reserve(long chars, String what) {
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
      throw new ExpressionLimitException(
          what
              + " would take the strings built by this expression past "
              + MAX_BUILT_CHARS
              + " characters");
    }
  }

  /** A string built: counted, refused when too large. */
  String built(String text, String what) {
    reserve(text.length(), what);
    built += text.length();
    checkDeadline();
    return text;
  }

  /** Called in loops over text or elements: checks the deadline every so often, cheaply. */
  void tick() {
    if ((++ticks & 1023) == 0) {
      checkDeadline();
    }
  }

  void checkDeadline() {
    if (deadlineNanos != Long.MAX_VALUE && System.nanoTime() - deadlineNanos > 0) {
      throw new ExpressionLimitException("the deadline ran out while evaluating", true);
    }
  }
}
