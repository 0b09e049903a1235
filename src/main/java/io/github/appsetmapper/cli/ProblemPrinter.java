package io.github.appsetmapper.cli;

import io.github.appsetmapper.config.Problem;
import java.io.PrintWriter;
import java.util.List;

/** Prints load problems one per line, as {@code file:line:column path: message}. */
final class ProblemPrinter {
  private ProblemPrinter() {}

  static void print(PrintWriter err, List<Problem> problems) {
    problems.forEach(p -> err.println(p));
    err.flush();
  }
}
