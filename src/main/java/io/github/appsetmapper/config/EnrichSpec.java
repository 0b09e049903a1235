package io.github.appsetmapper.config;

/**
 * {@code enrich.<name>}: a request per row whose answer becomes one named value on the row. {@code
 * missingIsEmpty} lets a container an indefinite {@code select} walks be missing or null. With
 * {@code forEach}, a request per element of a list the row gives, the value being the list of their
 * results (a map by {@code key} when it has one).
 */
public record EnrichSpec(
    Pos pos,
    String name,
    RequestSpec request,
    Expr select,
    Expr value,
    OnMissing onMissing,
    boolean explode,
    PaginateSpec paginate,
    boolean missingIsEmpty,
    ForEach forEach) {

  /**
   * {@code forEach: {in, as, key}}: {@code in} gives the list, each element is {@code as} in the
   * request and {@code value}, {@code key} (optional) names each result.
   */
  public record ForEach(Pos pos, Expr in, String as, Expr key) {
    public static final java.util.List<String> KEYS = java.util.List.of("in", "as", "key");
  }

  public enum OnMissing {
    ERROR("error"),
    DROP("drop"),
    NULL("null");

    private final String word;

    OnMissing(String word) {
      this.word = word;
    }

    @Override
    public String toString() {
      return word;
    }
  }
}
