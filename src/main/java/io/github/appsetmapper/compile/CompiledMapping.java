package io.github.appsetmapper.compile;

import io.github.appsetmapper.config.MappingSpec.SortOrder;
import io.github.appsetmapper.secret.SecretSource;
import io.github.appsetmapper.upstream.HostPolicy;
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
    CompiledExpression filter,
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
    io.github.appsetmapper.config.MaxDrop maxDrop) {}
