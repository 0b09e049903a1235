package io.github.appsetmapper.engine;

import io.github.appsetmapper.expr.EvaluationBudget;
import io.github.appsetmapper.json.JsonCodec;

/**
 * The heap a value an expression just gave keeps beyond what already existed, for the memory
 * budget: nothing for a value it only read (an item's field, counted with its answer), else the
 * smaller of what the evaluation built (two bytes a character, {@link EvaluationBudget#builtChars},
 * and each value's object, {@link EvaluationBudget#builtObjects}) and the value's own estimate (a
 * number computed from a large string it dropped keeps little). Read on the thread that evaluated,
 * right after the evaluation.
 */
final class BuiltValues {
  /** A value's header and its place in the row's map. */
  static final int VALUE_BYTES = 64;

  /** A built string's or element's object header, array header and reference. */
  static final int OBJECT_BYTES = 48;

  private BuiltValues() {}

  static long bytes(Object value) {
    long built = EvaluationBudget.builtChars();
    if (built == 0) {
      return 0;
    }
    long objects = EvaluationBudget.builtObjects();
    return Math.min(2 * built + OBJECT_BYTES * objects + VALUE_BYTES, JsonCodec.estimate(value));
  }
}
