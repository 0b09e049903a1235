package io.github.appsetmapper.config;

/** Upstream authentication ({@code request.auth} / {@code defaults.auth}). */
public sealed interface AuthSpec {
  Pos pos();

  /** {@code Authorization: Bearer <secret>}. */
  record Bearer(Pos pos, String secret) implements AuthSpec {}

  /** {@code Authorization: Basic base64(username:secret)}. */
  record Basic(Pos pos, Expr username, String passwordSecret) implements AuthSpec {}

  /** A header of the API's own choosing, such as {@code X-Api-Key}, carrying the secret. */
  record Header(Pos pos, String name, String secret) implements AuthSpec {}
}
