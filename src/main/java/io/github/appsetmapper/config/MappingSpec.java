package io.github.appsetmapper.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/** One mapping file's content as written (format v1), validated for shape but not yet compiled. */
public record MappingSpec(
    Pos pos,
    Pos namePos,
    String name,
    String description,
    Map<String, InputSpec> input,
    boolean inputAdditional,
    Map<String, VarSpec> vars,
    Map<String, SecretSpec> secrets,
    RequestOptions defaults,
    ListSpec list,
    Map<String, EnrichSpec> enrich,
    Expr filter,
    Expr sortBy,
    SortOrder sortOrder,
    Expr distinctBy,
    Integer limit,
    Map<String, Expr> parameters,
    boolean keepTypes,
    int minItems,
    int concurrency,
    List<String> allowedHosts,
    Duration deadline,
    MaxDrop maxDrop,
    List<String> key,
    Map<String, Expr> let,
    ExplodeSpec explode,
    Expr label) {

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
    private Pos namePos;
    private String name;
    private String description;
    private Map<String, InputSpec> input;
    private boolean inputAdditional;
    private Map<String, VarSpec> vars;
    private Map<String, SecretSpec> secrets;
    private RequestOptions defaults;
    private ListSpec list;
    private Map<String, EnrichSpec> enrich;
    private Expr filter;
    private Expr sortBy;
    private SortOrder sortOrder;
    private Expr distinctBy;
    private Integer limit;
    private Map<String, Expr> parameters;
    private boolean keepTypes;
    private int minItems;
    private int concurrency;
    private List<String> allowedHosts;
    private Duration deadline;
    private MaxDrop maxDrop;
    private List<String> key = List.of();
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

    public Builder namePos(Pos value) {
      this.namePos = value;
      return this;
    }

    public Builder name(String value) {
      this.name = value;
      return this;
    }

    public Builder description(String value) {
      this.description = value;
      return this;
    }

    public Builder input(Map<String, InputSpec> value) {
      this.input = value;
      return this;
    }

    public Builder inputAdditional(boolean value) {
      this.inputAdditional = value;
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

    public Builder sortOrder(SortOrder value) {
      this.sortOrder = value;
      return this;
    }

    public Builder distinctBy(Expr value) {
      this.distinctBy = value;
      return this;
    }

    public Builder limit(Integer value) {
      this.limit = value;
      return this;
    }

    public Builder parameters(Map<String, Expr> value) {
      this.parameters = value;
      return this;
    }

    public Builder keepTypes(boolean value) {
      this.keepTypes = value;
      return this;
    }

    public Builder minItems(int value) {
      this.minItems = value;
      return this;
    }

    public Builder concurrency(int value) {
      this.concurrency = value;
      return this;
    }

    public Builder allowedHosts(List<String> value) {
      this.allowedHosts = value;
      return this;
    }

    public Builder deadline(Duration value) {
      this.deadline = value;
      return this;
    }

    public Builder maxDrop(MaxDrop value) {
      this.maxDrop = value;
      return this;
    }

    /** The parameters that identify a row ({@code diff}, shadow mode); empty: none. */
    public Builder key(List<String> value) {
      this.key = value;
      return this;
    }

    public MappingSpec build() {
      return new MappingSpec(
          pos,
          namePos,
          name,
          description,
          input,
          inputAdditional,
          vars,
          secrets,
          defaults,
          list,
          enrich,
          filter,
          sortBy,
          sortOrder,
          distinctBy,
          limit,
          parameters,
          keepTypes,
          minItems,
          concurrency,
          allowedHosts,
          deadline,
          maxDrop,
          key,
          let,
          explode,
          label);
    }
  }
}
