package io.github.appsetmapper.config;

/** {@code list}: one (paginated) request whose JsonPath {@code items} selects the rows. */
public record ListSpec(Pos pos, RequestSpec request, Expr items, PaginateSpec paginate) {}
