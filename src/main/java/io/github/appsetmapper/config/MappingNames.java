package io.github.appsetmapper.config;

import java.util.regex.Pattern;

/**
 * A mapping's name is an RFC 1123 label (it is a path segment and a metric label). Refused, it is
 * one problem among the file's others: the loader compiles a mapping whose only parse problem is
 * its name, so that {@code name: my_mapping} no longer hides every other error of the file.
 */
public final class MappingNames {
  private static final Pattern NAME = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");

  private MappingNames() {}

  /** The problem of {@code spec}'s name, or null when it is valid (or missing: said elsewhere). */
  public static Problem problem(MappingSpec spec) {
    return spec.name() == null || NAME.matcher(spec.name()).matches()
        ? null
        : new Problem(
            spec.namePos(),
            "'"
                + spec.name()
                + "' must be lowercase letters, digits and '-', at most 63 (an RFC 1123 label),"
                + " e.g. pr-digests");
  }
}
