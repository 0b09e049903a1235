package io.github.appsetmapper.config;

/**
 * {@code list}: one (paginated) request whose JsonPath {@code items} selects the rows; {@code
 * missingIsEmpty} lets a container the path walks be missing or null (counted as empty). With
 * {@code entries} (a JsonPath on each entry's value), {@code items} selects objects and each of
 * their entries gives rows {@code {key, value}}; null: rows are what {@code items} selects.
 */
public record ListSpec(
    Pos pos,
    RequestSpec request,
    Expr items,
    PaginateSpec paginate,
    boolean missingIsEmpty,
    Expr entries) {}
