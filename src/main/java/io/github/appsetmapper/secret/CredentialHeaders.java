package io.github.appsetmapper.secret;

import java.util.Locale;
import java.util.Set;

/**
 * Header names that carry credentials whatever their value is: hidden in explain reports, and a
 * request sending one counts as sending credentials when the load decides where it may go.
 */
public final class CredentialHeaders {
  private static final Set<String> NAMES =
      Set.of("authorization", "proxy-authorization", "cookie", "private-token", "x-api-key");

  private CredentialHeaders() {}

  public static boolean is(String name) {
    return NAMES.contains(name.toLowerCase(Locale.ROOT));
  }
}
