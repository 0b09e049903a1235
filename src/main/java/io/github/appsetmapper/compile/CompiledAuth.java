package io.github.appsetmapper.compile;

/** Upstream authentication, its secrets named (resolved per request, never stored here). */
public sealed interface CompiledAuth {
  record Bearer(String secret) implements CompiledAuth {}

  record Basic(Template username, String passwordSecret) implements CompiledAuth {}

  record Header(String name, String secret) implements CompiledAuth {}
}
