package io.github.appsetmapper.compile;

import com.jayway.jsonpath.JsonPath;

/**
 * The list step. {@code container} is the definite part of {@code items} ({@code $.items} for
 * {@code $.items[*]}): it must exist and not be null, or the answer is an upstream error rather
 * than an empty list.
 */
public record CompiledList(
    CompiledRequest request, JsonPath items, JsonPath container, CompiledPaginate paginate) {}
