package io.github.appsetmapper.engine;

/**
 * A request could not be built from its templates: the fault of the input (a 400) when the
 * offending template reads the input, else of the upstream data it was built from (a 502).
 */
final class TemplateException extends Exception {
  private final boolean fromInput;

  TemplateException(String message, boolean fromInput) {
    super(message);
    this.fromInput = fromInput;
  }

  boolean fromInput() {
    return fromInput;
  }
}
