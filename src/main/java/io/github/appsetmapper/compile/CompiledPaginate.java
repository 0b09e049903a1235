package io.github.appsetmapper.compile;

import com.jayway.jsonpath.JsonPath;
import io.github.appsetmapper.config.PaginateSpec;

/** Pagination with the next-URL JsonPath compiled. */
public record CompiledPaginate(
    PaginateSpec.Mode mode, String linkRel, JsonPath next, int maxPages, boolean stopAtMax) {}
