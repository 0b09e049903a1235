package io.github.appsetmapper.compile;

import com.jayway.jsonpath.JsonPath;
import io.github.appsetmapper.config.PaginateSpec;

/**
 * Pagination with its JsonPaths and expressions compiled. {@code next} for NEXT_URL; {@code param},
 * {@code cursorFrom} and {@code until} for CURSOR; {@code param}, {@code start}, {@code size} and
 * {@code sizeParam} for PAGE.
 */
public record CompiledPaginate(
    PaginateSpec.Mode mode,
    String linkRel,
    JsonPath next,
    String param,
    JsonPath cursorFrom,
    CompiledExpression until,
    int start,
    Integer size,
    String sizeParam,
    int maxPages,
    boolean stopAtMax) {}
