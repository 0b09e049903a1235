package io.github.appsetmapper.cli;

import io.github.appsetmapper.runtime.AppRuntime;
import io.github.appsetmapper.secret.Redactor;

/**
 * A command whose output passes through one redactor, the one its runtime is built with: what
 * {@link Main} prints of a failure no command expected (its line, and the stack trace asked for)
 * passes through it too, so a secret the command read is masked there as everywhere else.
 */
abstract class RedactedCommand {
  private final Redactor redactor = new Redactor();

  /** A builder of the command's runtime, with the command's redactor. */
  AppRuntime.Builder runtimeBuilder() {
    return AppRuntime.builder().redactor(redactor);
  }

  /** The command's redactor. */
  Redactor redactor() {
    return redactor;
  }
}
