package io.github.appsetmapper.config;

import java.util.List;

/**
 * {@code explode: {in, as, onMissing}}: one row per element of a list the row itself holds, after
 * the list and before enrich, the element readable as {@code as}. {@code onMissing} (as an enrich
 * step's) says what a null or missing {@code in} does: {@code error} (a 502), {@code drop} the row,
 * or {@code "null"} keep it once with the element null.
 */
public record ExplodeSpec(Pos pos, Expr in, String as, EnrichSpec.OnMissing onMissing) {
  public static final List<String> KEYS = List.of("in", "as", "onMissing");
}
