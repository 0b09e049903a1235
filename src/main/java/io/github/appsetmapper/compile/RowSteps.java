package io.github.appsetmapper.compile;

import io.github.appsetmapper.config.EnrichSpec.OnMissing;
import java.util.List;

/**
 * What a mapping computes on each row besides its enrich steps: {@code explode} (one row per
 * element of a list the row holds), {@code let} (named values, each computed once per row, as soon
 * as the enrich results it reads exist) and {@code label} (what names a row in explain and errors).
 */
public record RowSteps(Explode explode, List<Let> lets, CompiledExpression label) {
  public static final RowSteps NONE = new RowSteps(null, List.of(), null);

  public RowSteps {
    lets = List.copyOf(lets);
  }

  /** {@code explode: {in, as, onMissing}}. */
  public record Explode(CompiledExpression in, String as, OnMissing onMissing) {}

  /**
   * {@code let.<name>}; {@code needs}: how many enrich steps must have run before it can be
   * computed (0: right after the list and explode, before the first enrich and early filter).
   */
  public record Let(String name, CompiledExpression expression, int needs) {}

  /** The lets computed once {@code steps} enrich steps have run, and not before. */
  public List<Let> computedAfter(int steps) {
    if (lets.isEmpty()) {
      return List.of(); // most mappings: no stream per getparams and step
    }
    return lets.stream().filter(let -> let.needs() == steps).toList();
  }
}
