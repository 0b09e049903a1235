package io.github.appsetmapper.config;

/**
 * {@code enrich.<name>}: a request per row whose answer becomes one named value on the row. {@code
 * missingIsEmpty} lets a container an indefinite {@code select} walks be missing or null.
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
    boolean missingIsEmpty) {

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
