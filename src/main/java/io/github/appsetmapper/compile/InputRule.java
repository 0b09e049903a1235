package io.github.appsetmapper.compile;

import com.google.re2j.Pattern;
import io.github.appsetmapper.config.InputSpec.InputType;
import java.util.List;

/** A declared input with its pattern compiled (RE2: matched against caller text in linear time). */
public record InputRule(
    String name,
    InputType type,
    boolean required,
    Object defaultValue,
    Pattern pattern,
    List<String> enumValues,
    String description) {}
