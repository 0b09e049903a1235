package io.github.appsetmapper.engine;

/**
 * A request could not be built from its templates: the fault of the input (a 400) when the
 * offending template reads the input, else of the upstream data it was built from (a 502).
 */
final class TemplateException extends Exception {
  private final boolean fromInput;
  private final String refusal;

  TemplateException(String message, boolean fromInput) {
    this(message, fromInput, null);
  }

  /**
   * @param refusal what a guard on where requests go refused ("path-segment", "header-value"),
   *     counted in a metric; null for a template that failed
   */
  TemplateException(String message, boolean fromInput, String refusal) {
    super(message);
    this.fromInput = fromInput;
    this.refusal = refusal;
  }

  String refusal() {
    return refusal;
  }

  boolean fromInput() {
    return fromInput;
  }
}
