package io.github.appsetmapper.cli;

import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.runtime.AppRuntime;
import io.github.appsetmapper.server.MappingRegistry;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code serve --replay}'s rule (the test file tests a mapping served: the one its {@code mapping:}
 * names, or the only one) at every reload, not only at start: a reload that removes or renames that
 * mapping, or adds a second beside a file that names none, leaves a server that start would refuse.
 * Its registry then refuses to run any mapping (each getparams and explain a 503 with the line, the
 * line among {@code GET /mappings} failures, an error logged once) until a reload mends it; the
 * files' mappings are kept as loaded, as a reload keeps them when {@code --default-mapping} goes.
 */
final class ReplayCheck {
  private static final Logger LOG = LoggerFactory.getLogger("appset_mapper.reload");

  private final AppRuntime runtime;
  private final String source;
  private String last;
  private boolean armed;

  ReplayCheck(AppRuntime runtime, String source) {
    this.runtime = runtime;
    this.source = source;
  }

  /** From now on (the first load passed the rule at start, which refuses to start otherwise). */
  synchronized void arm() {
    armed = true;
  }

  /** {@code registry}, refusing every call when the replay file tests none of its mappings. */
  synchronized MappingRegistry note(MappingRegistry registry) {
    if (!armed) {
      return registry;
    }
    List<CompiledMapping> served =
        registry.names().stream().map(name -> registry.find(name).orElseThrow()).toList();
    String why = runtime.replayRefusal(served, source);
    String line =
        why == null
            ? null
            : "--replay " + why + ": no mapping is run until a reload serves the mapping it tests";
    if (!Objects.equals(line, last)) {
      if (line != null) {
        LOG.error(line);
      } else if (last != null) {
        LOG.info("--replay: the mapping it tests is served again");
      }
      last = line;
    }
    return line == null ? registry : registry.refusing(line);
  }
}
