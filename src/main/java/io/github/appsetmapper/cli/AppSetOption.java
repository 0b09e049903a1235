package io.github.appsetmapper.cli;

import io.github.appsetmapper.server.KubernetesNames;
import java.io.PrintWriter;

/**
 * {@code --app-set} as the server checks applicationSetName: what a command runs is what serve
 * would.
 */
final class AppSetOption {
  private AppSetOption() {}

  /** Whether {@code appSet} is refused; if so, says why on {@code err}. */
  static boolean refused(String appSet, PrintWriter err) {
    if (KubernetesNames.isNameOrEmpty(appSet)) {
      return false;
    }
    err.println("error: --app-set must be " + KubernetesNames.RULE);
    err.flush();
    return true;
  }
}
