package io.github.appsetmapper.cli;

import io.github.appsetmapper.upstream.call.RequestFailure;

/** The exit codes of every command; the README's command-line section has the table. */
final class ExitCode {
  static final int OK = 0;

  /**
   * The work failed: a mapping did not load, a test case failed; for {@code run}, getparams failed
   * because of the mapping or this machine (an expression, a secret that cannot be read).
   */
  static final int FAILED = 1;

  /**
   * The command line is wrong: an unknown or malformed option (picocli's own code for these), an
   * unknown or ambiguous {@code --var}, a missing token, a value out of range.
   */
  static final int USAGE = 2;

  /** {@code run}: the mapping refused the input (getparams would answer 400). */
  static final int INPUT = 3;

  /**
   * {@code run}: an upstream failed, was unreachable or too slow, answered too little for a guard,
   * or too much for the memory budget (getparams would answer 502, 503 or 504).
   */
  static final int UPSTREAM = 4;

  /** {@code serve}: the port is already in use. */
  static final int PORT_IN_USE = 5;

  private ExitCode() {}

  /** What a failed getparams exits with: whose the fault is. */
  static int of(Throwable failure) {
    if (!(failure instanceof RequestFailure known)) {
      return FAILED;
    }
    return switch (known.kind()) {
      case INPUT -> INPUT;
      case FAILED, CONNECT, TIMEOUT, DEADLINE, GUARD, GUARD_UNKNOWN, OVERLOAD -> UPSTREAM;
      case LOCAL, EXPRESSION, SECRET -> FAILED;
    };
  }
}
