package io.github.appsetmapper.compile;

import com.jayway.jsonpath.JsonPath;

/**
 * The list step. {@code container} is the definite part of {@code items} ({@code $.items} for
 * {@code $.items[*]}; null for the body itself): it must exist and not be null, and be a list when
 * {@code containerIsList}, or the answer is an upstream error rather than an empty list.
 */
public record CompiledList(
    CompiledRequest request,
    JsonPath items,
    JsonPath container,
    boolean containerIsList,
    CompiledPaginate paginate) {}
