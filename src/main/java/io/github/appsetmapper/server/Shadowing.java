package io.github.appsetmapper.server;

import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.engine.Answer;
import io.github.appsetmapper.engine.Invocation;
import io.github.appsetmapper.engine.Trace;
import io.github.appsetmapper.upstream.call.RequestFailure;
import java.util.List;
import java.util.Map;

/**
 * Shadow mode as the server sees it ({@code serve --shadow}): candidate mappings run beside the
 * live ones. Only {@link #after} is on the getparams path, after the live answer has gone, and it
 * only hands the work on; nothing here can change, delay or fail a live answer. {@link #NONE}: no
 * candidates.
 */
public interface Shadowing {
  Shadowing NONE =
      new Shadowing() {
        @Override
        public Answer candidate(String name, Invocation invocation) {
          return null;
        }

        @Override
        public String report(String name) {
          return null;
        }
      };

  /**
   * The trace the live getparams runs with: {@code live} itself, or one that also keeps the
   * upstream answers the live call saw, for a candidate of the same name to share.
   */
  default Trace watch(CompiledMapping mapping, Trace live) {
    return live;
  }

  /**
   * The live answer has been sent: its rows, or its failure's status and message ({@code rows}
   * null). Returns at once; the candidate runs later on its own executor, or not at all.
   */
  default void after(
      CompiledMapping mapping,
      Invocation invocation,
      Trace watched,
      List<Map<String, Object>> rows,
      ErrorAnswer failure) {}

  /**
   * The candidate of this name answering a getparams (its own route), its wire JSON written within
   * its deadline ({@link Answer#body}), or null: none.
   */
  Answer candidate(String name, Invocation invocation) throws RequestFailure;

  /** The differences kept for the mapping of this name, as JSON, or null: unknown name. */
  String report(String name);
}
