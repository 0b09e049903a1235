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
    RequestDefaults defaults,
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
    MaxDrop maxDrop) {

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
}
