package io.github.appsetmapper.json;

/**
 * What a write of JSON (or another walk over values) asks before each value (a map, a list, a key,
 * a text, a number): the one seam through which a writer reaches a bound it cannot see from here,
 * the deadline of the answer being written ({@code engine.AnswerBody}, {@code #json}), without this
 * package depending on the evaluation's. It stops the write by throwing; the write then leaves
 * nothing behind.
 */
@FunctionalInterface
public interface WritePace {
  /** Asks nothing: every write of data whose size is bounded elsewhere, or that has no deadline. */
  WritePace NONE = value -> {};

  /** Before {@code value} is written (it may throw to stop the write). */
  void before(Object value);
}
