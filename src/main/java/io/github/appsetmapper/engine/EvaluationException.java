package io.github.appsetmapper.engine;

/** An expression failed on a row: a 500 naming the mapping, the field and the row. */
public final class EvaluationException extends Exception {
  public EvaluationException(String message) {
    super(message);
  }
}
