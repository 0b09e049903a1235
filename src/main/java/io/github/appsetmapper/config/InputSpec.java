package io.github.appsetmapper.config;

import java.util.List;

/** A declared input parameter ({@code input.<key>}). */
public record InputSpec(
    Pos pos,
    String name,
    InputType type,
    boolean required,
    Object defaultValue,
    Expr pattern,
    List<String> enumValues,
    String description) {

  public enum InputType {
    STRING("string"),
    NUMBER("number"),
    BOOLEAN("boolean"),
    LIST("list"),
    MAP("map"),
    ANY("any");

    private final String word;

    InputType(String word) {
      this.word = word;
    }

    @Override
    public String toString() {
      return word;
    }
  }
}
