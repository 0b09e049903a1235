package io.github.appsetmapper.cli;

import io.github.appsetmapper.compile.MappingLoader;
import io.github.appsetmapper.compile.VarValues;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;

/**
 * {@code --var NAME=VALUE} and {@code --var MAPPING.NAME=VALUE}, as every command reads and checks
 * them: a malformed one, and a bare one the mappings disagree on, are refused; one that no mapping
 * declares is refused by the commands that load once ({@code validate}, {@code run}, {@code test})
 * and only warned about by {@code serve}, whose mappings come and go with reloads.
 */
final class VarOption {
  static final String LABEL = "[MAPPING.]NAME=VALUE";

  static final String DESCRIPTION =
      "Set a mapping var (repeatable): NAME=VALUE for every mapping that declares NAME (they must"
          + " agree on what it is: the same env, or the same default), MAPPING.NAME=VALUE for one.";

  private VarOption() {}

  /** The values, or null after printing why they are malformed. */
  static VarValues parse(Map<String, String> given, PrintWriter err) {
    try {
      return VarValues.parse(given);
    } catch (IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      err.flush();
      return null;
    }
  }

  /** Prints the refused vars (ambiguous, and unknown when {@code unknownRefused}); true if any. */
  static boolean refused(MappingLoader.Result loaded, PrintWriter err, boolean unknownRefused) {
    List<String> lines = new java.util.ArrayList<>(loaded.varErrors());
    if (unknownRefused) {
      lines.addAll(loaded.unknownVars());
    }
    lines.forEach(line -> err.println("error: " + line));
    err.flush();
    return !lines.isEmpty();
  }
}
