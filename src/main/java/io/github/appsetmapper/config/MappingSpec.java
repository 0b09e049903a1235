package io.github.appsetmapper.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/** One mapping file's content as written (format v1), validated for shape but not yet compiled. */
public record MappingSpec(
    Pos pos,
    MappingSettings settings,
    Map<String, InputSpec> input,
    Map<String, VarSpec> vars,
    Map<String, SecretSpec> secrets,
    RequestOptions defaults,
    ListSpec list,
    Map<String, EnrichSpec> enrich,
    Expr filter,
    Expr sortBy,
    Expr distinctBy,
    Map<String, Expr> parameters,
    List<String> allowedHosts,
    Map<String, Expr> let,
    ExplodeSpec explode,
    Expr label)
    implements MappingSettings.Holder {

  public static final int DEFAULT_CONCURRENCY = 8;

  /** Under Argo CD's 30 s request timeout, so Argo CD gets our 504 rather than its own. */
  public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(25);

  public enum SortOrder {
    ASC("asc"),
    DESC("desc");

    private final String word;

    SortOrder(String word) {
      this.word = word;
    }

    @Override
    public String toString() {
      return word;
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Sets the components by name, so that two of one type can never be swapped. */
  public static final class Builder {
    private Pos pos;
    private MappingSettings settings;
    private Map<String, InputSpec> input;
    private Map<String, VarSpec> vars;
    private Map<String, SecretSpec> secrets;
    private RequestOptions defaults;
    private ListSpec list;
    private Map<String, EnrichSpec> enrich;
    private Expr filter;
    private Expr sortBy;
    private Expr distinctBy;
    private Map<String, Expr> parameters;
    private List<String> allowedHosts;
    private Map<String, Expr> let = Map.of();
    private ExplodeSpec explode;
    private Expr label;

    private Builder() {}

    /** {@code let}: values computed once per row, by name, in order. */
    public Builder let(Map<String, Expr> value) {
      this.let = value;
      return this;
    }

    /** {@code explode}: one row per element of a list the row holds (null: none). */
    public Builder explode(ExplodeSpec value) {
      this.explode = value;
      return this;
    }

    /** {@code label}: what names a row in explain and in error messages (null: guessed). */
    public Builder label(Expr value) {
      this.label = value;
      return this;
    }

    public Builder pos(Pos value) {
      this.pos = value;
      return this;
    }

    /** What the compiled mapping keeps as written. */
    public Builder settings(MappingSettings value) {
      this.settings = value;
      return this;
    }

    public Builder input(Map<String, InputSpec> value) {
      this.input = value;
      return this;
    }

    public Builder vars(Map<String, VarSpec> value) {
      this.vars = value;
      return this;
    }

    public Builder secrets(Map<String, SecretSpec> value) {
      this.secrets = value;
      return this;
    }

    public Builder defaults(RequestOptions value) {
      this.defaults = value;
      return this;
    }

    public Builder list(ListSpec value) {
      this.list = value;
      return this;
    }

    public Builder enrich(Map<String, EnrichSpec> value) {
      this.enrich = value;
      return this;
    }

    public Builder filter(Expr value) {
      this.filter = value;
      return this;
    }

    public Builder sortBy(Expr value) {
      this.sortBy = value;
      return this;
    }

    public Builder distinctBy(Expr value) {
      this.distinctBy = value;
      return this;
    }

    public Builder parameters(Map<String, Expr> value) {
      this.parameters = value;
      return this;
    }

    public Builder allowedHosts(List<String> value) {
      this.allowedHosts = value;
      return this;
    }

    public MappingSpec build() {
      return new MappingSpec(
          pos,
          settings,
          input,
          vars,
          secrets,
          defaults,
          list,
          enrich,
          filter,
          sortBy,
          distinctBy,
          parameters,
          allowedHosts,
          let,
          explode,
          label);
    }
  }
}
