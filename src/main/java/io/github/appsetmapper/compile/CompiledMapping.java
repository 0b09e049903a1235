package io.github.appsetmapper.compile;

import io.github.appsetmapper.config.MappingSettings;
import io.github.appsetmapper.secret.SecretSource;
import io.github.appsetmapper.upstream.call.HostPolicy;
import java.util.List;
import java.util.Map;

/** A mapping ready to execute: everything parsed, checked and resolved when the file loaded. */
public record CompiledMapping(
    MappingSettings settings,
    String sourceFile,
    Map<String, InputRule> inputs,
    Map<String, String> vars,
    Map<String, SecretSource> secrets,
    CompiledList list,
    List<CompiledEnrich> enrich,
    CompiledFilter filter,
    CompiledExpression sortBy,
    CompiledExpression distinctBy,
    Map<String, CompiledExpression> parameters,
    HostPolicy hosts,
    java.util.Set<String> metricHosts,
    RowSteps rowSteps)
    implements MappingSettings.Holder {
  public static Builder builder() {
    return new Builder();
  }

  /** Sets the components by name, so that two of one type can never be swapped. */
  public static final class Builder {
    private MappingSettings settings;
    private String sourceFile;
    private Map<String, InputRule> inputs;
    private Map<String, String> vars;
    private Map<String, SecretSource> secrets;
    private CompiledList list;
    private List<CompiledEnrich> enrich;
    private CompiledFilter filter;
    private CompiledExpression sortBy;
    private CompiledExpression distinctBy;
    private Map<String, CompiledExpression> parameters;
    private HostPolicy hosts;
    private RowSteps rowSteps = RowSteps.NONE;

    /** {@code explode}, {@code let} and {@code label}: what the mapping computes on each row. */
    public Builder rowSteps(RowSteps value) {
      this.rowSteps = value;
      return this;
    }

    private Builder() {}

    /** What the mapping file says that is kept as written. */
    public Builder settings(MappingSettings value) {
      this.settings = value;
      return this;
    }

    public Builder sourceFile(String value) {
      this.sourceFile = value;
      return this;
    }

    public Builder inputs(Map<String, InputRule> value) {
      this.inputs = value;
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

    public Builder distinctBy(CompiledExpression value) {
      this.distinctBy = value;
      return this;
    }

    public Builder parameters(Map<String, CompiledExpression> value) {
      this.parameters = value;
      return this;
    }

    public Builder hosts(HostPolicy value) {
      this.hosts = value;
      return this;
    }

    public CompiledMapping build() {
      return new CompiledMapping(
          settings,
          sourceFile,
          inputs,
          vars,
          secrets,
          list,
          enrich,
          filter,
          sortBy,
          distinctBy,
          parameters,
          hosts,
          MetricHosts.of(vars, list, enrich, hosts),
          rowSteps);
    }
  }
}
