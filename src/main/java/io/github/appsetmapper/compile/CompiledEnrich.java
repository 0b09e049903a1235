package io.github.appsetmapper.compile;

import com.jayway.jsonpath.JsonPath;
import io.github.appsetmapper.config.EnrichSpec.OnMissing;

/**
 * One enrich step; {@code select} and {@code value} are both null when the whole body is kept. An
 * indefinite {@code select} also comes as {@code rows}, with the checks of the containers it walks
 * (null otherwise). {@code readsNoBody}: the step reads only the status and headers (a {@code
 * value} that never reads {@code response.body}), so a 204 is a complete answer for it.
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
    boolean readsNoBody) {}
