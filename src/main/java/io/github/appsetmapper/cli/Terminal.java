package io.github.appsetmapper.cli;

import io.github.appsetmapper.text.Printable;
import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * A command's stdout and stderr as it prints lines to them: each {@code println} is one line,
 * escaped by {@link Printable} whatever it quotes (an upstream message, a file name, an input, a
 * recorded answer), so a value can neither forge a line nor drive the terminal. {@code print} is
 * left for a report rendered whole, which escapes its own values (explain text, diff text).
 */
final class Terminal extends PrintWriter {
  private Terminal(PrintWriter target) {
    super(target, false);
  }

  static PrintWriter out(CommandLine.Model.CommandSpec spec) {
    return of(spec.commandLine().getOut());
  }

  static PrintWriter err(CommandLine.Model.CommandSpec spec) {
    return of(spec.commandLine().getErr());
  }

  static PrintWriter of(PrintWriter target) {
    return target instanceof Terminal ? target : new Terminal(target);
  }

  @Override
  public void println(String line) {
    super.println(Printable.escape(line));
  }

  @Override
  public void println(Object line) {
    println(String.valueOf(line));
  }

  @Override
  public void println(char[] line) {
    println(new String(line));
  }
}
