package io.github.appsetmapper.compile;

import com.jayway.jsonpath.JsonPath;
import io.github.appsetmapper.config.EnrichSpec.OnMissing;

/**
 * One enrich step; {@code select} and {@code value} are both null when the whole body is kept. An
 * indefinite {@code select} also comes as {@code rows}, with the checks of the containers it walks
 * (null otherwise). {@code readsNoBody}: the step reads only the status and headers (a {@code
 * value} that never reads {@code response.body}), so a 204 is a complete answer for it. {@code
 * forEach}: null for one request per row.
 */
public record CompiledEnrich(
    String name,
    CompiledRequest request,
    JsonPath select,
    RowPath rows,
    CompiledExpression value,
    OnMissing onMissing,
    boolean explode,
    CompiledPaginate paginate,
    boolean readsNoBody,
    ForEach forEach) {

  /** A compiled enrich step, set component by component. */
  public static Builder builder() {
    return new Builder();
  }

  /** Sets each component by name: two of one type cannot be swapped unseen. */
  public static final class Builder {
    private String name;
    private CompiledRequest request;
    private JsonPath select;
    private RowPath rows;
    private CompiledExpression value;
    private OnMissing onMissing;
    private boolean explode;
    private CompiledPaginate paginate;
    private boolean readsNoBody;
    private ForEach forEach;

    private Builder() {}

    public Builder name(String value) {
      this.name = value;
      return this;
    }

    public Builder request(CompiledRequest value) {
      this.request = value;
      return this;
    }

    public Builder select(JsonPath value) {
      this.select = value;
      return this;
    }

    public Builder rows(RowPath value) {
      this.rows = value;
      return this;
    }

    public Builder value(CompiledExpression value) {
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

    public Builder paginate(CompiledPaginate value) {
      this.paginate = value;
      return this;
    }

    public Builder readsNoBody(boolean value) {
      this.readsNoBody = value;
      return this;
    }

    public Builder forEach(ForEach value) {
      this.forEach = value;
      return this;
    }

    public CompiledEnrich build() {
      return new CompiledEnrich(
          name, request, select, rows, value, onMissing, explode, paginate, readsNoBody, forEach);
    }
  }

  /**
   * A request per element of the list {@code in} gives, the element named {@code as}; {@code key}
   * (null: none) names each result, so the value is a map rather than a list.
   */
  public record ForEach(CompiledExpression in, String as, CompiledExpression key) {}
}
