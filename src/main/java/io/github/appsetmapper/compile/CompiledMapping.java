package io.github.appsetmapper.compile;

import io.github.appsetmapper.config.MappingSpec.SortOrder;
import io.github.appsetmapper.secret.SecretSource;
import io.github.appsetmapper.upstream.call.HostPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** A mapping ready to execute: everything parsed, checked and resolved when the file loaded. */
public record CompiledMapping(
    String name,
    String description,
    String sourceFile,
    io.github.appsetmapper.config.Pos namePos,
    Map<String, InputRule> inputs,
    boolean inputAdditional,
    Map<String, String> vars,
    Map<String, SecretSource> secrets,
    CompiledList list,
    List<CompiledEnrich> enrich,
    CompiledFilter filter,
    CompiledExpression sortBy,
    SortOrder sortOrder,
    CompiledExpression distinctBy,
    Integer limit,
    Map<String, CompiledExpression> parameters,
    boolean keepTypes,
    int minItems,
    int concurrency,
    HostPolicy hosts,
    Duration deadline,
    io.github.appsetmapper.config.MaxDrop maxDrop,
    List<String> key,
    java.util.Set<String> metricHosts,
    RowSteps rowSteps) {
  public static Builder builder() {
    return new Builder();
  }

  /** Sets the components by name, so that two of one type can never be swapped. */
  public static final class Builder {
    private String name;
    private String description;
    private String sourceFile;
    private io.github.appsetmapper.config.Pos namePos;
    private Map<String, InputRule> inputs;
    private boolean inputAdditional;
    private Map<String, String> vars;
    private Map<String, SecretSource> secrets;
    private CompiledList list;
    private List<CompiledEnrich> enrich;
    private CompiledFilter filter;
    private CompiledExpression sortBy;
    private SortOrder sortOrder;
    private CompiledExpression distinctBy;
    private Integer limit;
    private Map<String, CompiledExpression> parameters;
    private boolean keepTypes;
    private int minItems;
    private int concurrency;
    private HostPolicy hosts;
    private Duration deadline;
    private List<String> key = List.of();
    private RowSteps rowSteps = RowSteps.NONE;

    /** {@code explode}, {@code let} and {@code label}: what the mapping computes on each row. */
    public Builder rowSteps(RowSteps value) {
      this.rowSteps = value;
      return this;
    }

    private io.github.appsetmapper.config.MaxDrop maxDrop;

    private Builder() {}

    public Builder name(String value) {
      this.name = value;
      return this;
    }

    public Builder description(String value) {
      this.description = value;
      return this;
    }

    public Builder sourceFile(String value) {
      this.sourceFile = value;
      return this;
    }

    public Builder namePos(io.github.appsetmapper.config.Pos value) {
      this.namePos = value;
      return this;
    }

    public Builder inputs(Map<String, InputRule> value) {
      this.inputs = value;
      return this;
    }

    public Builder inputAdditional(boolean value) {
      this.inputAdditional = value;
      return this;
    }

    public Builder vars(Map<String, String> value) {
      this.vars = value;
      return this;
    }

    public Builder secrets(Map<String, SecretSource> value) {
      this.secrets = value;
      return this;
    }

    public Builder list(CompiledList value) {
      this.list = value;
      return this;
    }

    public Builder enrich(List<CompiledEnrich> value) {
      this.enrich = value;
      return this;
    }

    public Builder filter(CompiledFilter value) {
      this.filter = value;
      return this;
    }

    public Builder sortBy(CompiledExpression value) {
      this.sortBy = value;
      return this;
    }

    public Builder sortOrder(SortOrder value) {
      this.sortOrder = value;
      return this;
    }

    public Builder distinctBy(CompiledExpression value) {
      this.distinctBy = value;
      return this;
    }

    public Builder limit(Integer value) {
      this.limit = value;
      return this;
    }

    public Builder parameters(Map<String, CompiledExpression> value) {
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

    public Builder hosts(HostPolicy value) {
      this.hosts = value;
      return this;
    }

    public Builder deadline(Duration value) {
      this.deadline = value;
      return this;
    }

    public Builder maxDrop(io.github.appsetmapper.config.MaxDrop value) {
      this.maxDrop = value;
      return this;
    }

    /** The parameters that identify a row, for {@code diff} and shadow mode (empty: none). */
    public Builder key(List<String> value) {
      this.key = value;
      return this;
    }

    public CompiledMapping build() {
      return new CompiledMapping(
          name,
          description,
          sourceFile,
          namePos,
          inputs,
          inputAdditional,
          vars,
          secrets,
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
          hosts,
          deadline,
          maxDrop,
          key,
          MetricHosts.of(vars, list, enrich, hosts),
          rowSteps);
    }
  }
}
