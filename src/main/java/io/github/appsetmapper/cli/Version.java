package io.github.appsetmapper.cli;

import picocli.CommandLine;

/** The version from the jar's manifest, or "dev" when run from classes. */
final class Version implements CommandLine.IVersionProvider {
  @Override
  public String[] getVersion() {
    String version = Main.class.getPackage().getImplementationVersion();
    return new String[] {"appset-mapper " + (version == null ? "dev" : version)};
  }
}
