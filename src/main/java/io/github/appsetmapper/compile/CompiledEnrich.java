package io.github.appsetmapper.compile;

import com.jayway.jsonpath.JsonPath;
import io.github.appsetmapper.config.EnrichSpec.OnMissing;

/**
 * One enrich step; {@code select} and {@code value} are both null when the whole body is kept. An
 * indefinite {@code select} also comes as {@code rows}, with the checks of the containers it walks
 * (null otherwise). {@code readsNoBody}: the step reads only the status and headers (a {@code
 * value} that never reads {@code response.body}), so a 204 is a complete answer for it. {@code
 * forEach}: null for one request per row.
 */
public record CompiledEnrich(
    String name,
    CompiledRequest request,
    JsonPath select,
    RowPath rows,
    CompiledExpression value,
    OnMissing onMissing,
    boolean explode,
    CompiledPaginate paginate,
    boolean readsNoBody,
    ForEach forEach) {

  /**
   * A request per element of the list {@code in} gives, the element named {@code as}; {@code key}
   * (null: none) names each result, so the value is a map rather than a list.
   */
  public record ForEach(CompiledExpression in, String as, CompiledExpression key) {}
}
