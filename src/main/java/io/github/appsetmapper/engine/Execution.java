package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.secret.Redactor;
import java.util.concurrent.ExecutorService;

/**
 * One getparams as its stages see it: the mapping, who is told what happens ({@code trace}), how
 * its requests are rendered and fetched, and what its calls cost ({@code books}).
 */
record Execution(
    CompiledMapping mapping,
    Trace trace,
    RequestRenderer renderer,
    Fetcher fetcher,
    ExecutorService pool,
    Redactor redactor) {

  CallAccounting books() {
    return fetcher.books();
  }
}
