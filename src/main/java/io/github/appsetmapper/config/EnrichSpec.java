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

  /** An enrich step, set component by component. */
  public static Builder builder() {
    return new Builder();
  }

  /** Sets each component by name: two of one type cannot be swapped unseen. */
  public static final class Builder {
    private Pos pos;
    private String name;
    private RequestSpec request;
    private Expr select;
    private Expr value;
    private OnMissing onMissing;
    private boolean explode;
    private PaginateSpec paginate;
    private boolean missingIsEmpty;
    private ForEach forEach;

    private Builder() {}

    public Builder pos(Pos value) {
      this.pos = value;
      return this;
    }

    public Builder name(String value) {
      this.name = value;
      return this;
    }

    public Builder request(RequestSpec value) {
      this.request = value;
      return this;
    }

    public Builder select(Expr value) {
      this.select = value;
      return this;
    }

    public Builder value(Expr value) {
      this.value = value;
      return this;
    }

    public Builder onMissing(OnMissing value) {
      this.onMissing = value;
      return this;
    }

    public Builder explode(boolean value) {
      this.explode = value;
      return this;
    }

    public Builder paginate(PaginateSpec value) {
      this.paginate = value;
      return this;
    }

    public Builder missingIsEmpty(boolean value) {
      this.missingIsEmpty = value;
      return this;
    }

    public Builder forEach(ForEach value) {
      this.forEach = value;
      return this;
    }

    public EnrichSpec build() {
      return new EnrichSpec(
          pos, name, request, select, value, onMissing, explode, paginate, missingIsEmpty, forEach);
    }
  }

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
