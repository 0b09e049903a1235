package io.github.appsetmapper.compile;

/**
 * The list step: its request, the {@code items} path with the checks of the containers it walks (a
 * missing or null container is an upstream error, not an empty list), and its pagination (null: one
 * page).
 */
public record CompiledList(CompiledRequest request, RowPath items, CompiledPaginate paginate) {}
