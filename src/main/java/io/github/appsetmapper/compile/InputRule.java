package io.github.appsetmapper.compile;

import io.github.appsetmapper.config.InputSpec.InputType;
import java.util.List;
import java.util.regex.Pattern;

/** A declared input with its pattern compiled. */
public record InputRule(
    String name,
    InputType type,
    boolean required,
    Object defaultValue,
    Pattern pattern,
    List<String> enumValues,
    String description) {}
