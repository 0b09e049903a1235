package io.github.appsetmapper.compile;

/**
 * The list step: its request, the {@code items} path with the checks of the containers it walks (a
 * missing or null container is an upstream error, not an empty list), and its pagination (null: one
 * page). {@code entries} (null: none): the objects {@code items} selects become one row per entry,
 * {@code {key, value}}, {@code value} each match of this path on the entry's value.
 */
public record CompiledList(
    CompiledRequest request, RowPath items, CompiledPaginate paginate, RowPath entries) {}
