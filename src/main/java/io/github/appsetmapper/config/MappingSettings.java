package io.github.appsetmapper.config;

import java.time.Duration;
import java.util.List;

/**
 * What a mapping file says that its compiled form keeps as written: {@link MappingSpec} and {@code
 * compile.CompiledMapping} both hold this one record (and read it through {@link Holder}), so a
 * field of this kind is declared, built and carried over once.
 */
public record MappingSettings(
    String name,
    String description,
    Pos namePos,
    boolean inputAdditional,
    MappingSpec.SortOrder sortOrder,
    Integer limit,
    boolean keepTypes,
    int minItems,
    int concurrency,
    Duration deadline,
    MaxDrop maxDrop,
    List<String> key) {

  public static Builder builder() {
    return new Builder();
  }

  /** Sets the components by name, so that two of one type can never be swapped. */
  public static final class Builder {
    private String name;
    private String description;
    private Pos namePos;
    private boolean inputAdditional;
    private MappingSpec.SortOrder sortOrder;
    private Integer limit;
    private boolean keepTypes;
    private int minItems;
    private int concurrency;
    private Duration deadline;
    private MaxDrop maxDrop;
    private List<String> key = List.of();

    private Builder() {}

    public Builder name(String value) {
      this.name = value;
      return this;
    }

    public Builder description(String value) {
      this.description = value;
      return this;
    }

    public Builder namePos(Pos value) {
      this.namePos = value;
      return this;
    }

    public Builder inputAdditional(boolean value) {
      this.inputAdditional = value;
      return this;
    }

    public Builder sortOrder(MappingSpec.SortOrder value) {
      this.sortOrder = value;
      return this;
    }

    public Builder limit(Integer value) {
      this.limit = value;
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

    public Builder deadline(Duration value) {
      this.deadline = value;
      return this;
    }

    public Builder maxDrop(MaxDrop value) {
      this.maxDrop = value;
      return this;
    }

    public Builder key(List<String> value) {
      this.key = value;
      return this;
    }

    public MappingSettings build() {
      return new MappingSettings(
          name,
          description,
          namePos,
          inputAdditional,
          sortOrder,
          limit,
          keepTypes,
          minItems,
          concurrency,
          deadline,
          maxDrop,
          key);
    }
  }

  /** A mapping, as written or compiled, read through its {@link MappingSettings}. */
  public interface Holder {
    MappingSettings settings();

    default String name() {
      return settings().name();
    }

    default String description() {
      return settings().description();
    }

    default Pos namePos() {
      return settings().namePos();
    }

    default boolean inputAdditional() {
      return settings().inputAdditional();
    }

    default MappingSpec.SortOrder sortOrder() {
      return settings().sortOrder();
    }

    default Integer limit() {
      return settings().limit();
    }

    default boolean keepTypes() {
      return settings().keepTypes();
    }

    default int minItems() {
      return settings().minItems();
    }

    default int concurrency() {
      return settings().concurrency();
    }

    default Duration deadline() {
      return settings().deadline();
    }

    default MaxDrop maxDrop() {
      return settings().maxDrop();
    }

    /** The parameters that identify a row ({@code diff}, shadow mode); empty: none. */
    default List<String> key() {
      return settings().key();
    }
  }
}
