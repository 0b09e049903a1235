package io.github.appsetmapper.server;

/**
 * Kubernetes object names as the API server checks them for an ApplicationSet: a DNS-1123 subdomain
 * (lowercase alphanumerics, '-' and '.', each dot-separated label starting and ending
 * alphanumeric), at most 253 characters. Checked by hand, no regex, in one pass.
 */
public final class KubernetesNames {
  static final int MAX_LENGTH = 253;

  /** What a name must be, for the one line that refuses one (never echoing it). */
  public static final String RULE =
      "a Kubernetes name: at most "
          + MAX_LENGTH
          + " lowercase letters, digits, '-' and '.', starting and ending with a letter or"
          + " digit";

  private KubernetesNames() {}

  /**
   * Empty is accepted: Argo CD always sends the name, but {@code argocd appset generate} and
   * hand-written calls may leave it out, and nothing keyed by it needs it.
   */
  public static boolean isNameOrEmpty(String name) {
    return name.isEmpty() || isSubdomain(name);
  }

  static boolean isSubdomain(String name) {
    if (name.isEmpty() || name.length() > MAX_LENGTH) {
      return false;
    }
    char previous = '.';
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean alphanumeric = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
      if (c == '.') {
        if (!isAlphanumeric(previous)) {
          return false;
        }
      } else if (c == '-') {
        if (previous == '.') {
          return false;
        }
      } else if (!alphanumeric) {
        return false;
      }
      previous = c;
    }
    return isAlphanumeric(previous);
  }

  private static boolean isAlphanumeric(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
  }
}
