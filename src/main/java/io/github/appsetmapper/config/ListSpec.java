package io.github.appsetmapper.config;

/**
 * {@code list}: one (paginated) request whose JsonPath {@code items} selects the rows; {@code
 * missingIsEmpty} lets a container the path walks be missing or null (counted as empty).
 */
public record ListSpec(
    Pos pos, RequestSpec request, Expr items, PaginateSpec paginate, boolean missingIsEmpty) {}
