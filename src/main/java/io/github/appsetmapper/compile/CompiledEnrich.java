package io.github.appsetmapper.compile;

import com.jayway.jsonpath.JsonPath;
import io.github.appsetmapper.config.EnrichSpec.OnMissing;

/** One enrich step; {@code select} and {@code value} are both null when the whole body is kept. */
public record CompiledEnrich(
    String name,
    CompiledRequest request,
    JsonPath select,
    CompiledExpression value,
    OnMissing onMissing,
    boolean explode,
    CompiledPaginate paginate) {}
