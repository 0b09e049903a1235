package io.github.appsetmapper.cli;

/** The exit codes of every command; the README's command-line section has the table. */
final class ExitCode {
  static final int OK = 0;

  /** The work failed: a mapping did not load, a test case failed, getparams would fail. */
  static final int FAILED = 1;

  /**
   * The command line is wrong: an unknown or malformed option (picocli's own code for these), an
   * unknown or ambiguous {@code --var}, a missing token, a value out of range.
   */
  static final int USAGE = 2;

  private ExitCode() {}
}
