package io.github.appsetmapper.cli;

import io.github.appsetmapper.runtime.AppRuntime;
import io.github.appsetmapper.shadow.Shadow;
import io.github.appsetmapper.shadow.ShadowSettings;
import io.github.appsetmapper.shadow.ShadowWiring;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/** {@code serve --shadow DIR} and how its candidates run. */
final class ShadowFlags {
  @Option(
      names = "--shadow",
      paramLabel = "DIR",
      description =
          "Candidate mappings (a file or folder, repeatable), matched to live ones by name: each"
              + " runs on the live input after the live answer has gone, and is served at"
              + " /mappings/<name>/shadow/api/v1/getparams.execute; GET /mappings/<name>/shadow"
              + " shows what it would change.")
  List<Path> dirs = List.of();

  @Option(
      names = "--shadow-memory-budget",
      defaultValue = "32Mi",
      converter = ByteSizeConverter.class,
      paramLabel = "SIZE",
      description =
          "Memory for the candidates' upstream answers, apart from --memory-budget (default"
              + " ${DEFAULT-VALUE}).")
  long memoryBudget;

  @Option(
      names = "--shadow-threads",
      defaultValue = "2",
      description = "Candidates computing at once (default ${DEFAULT-VALUE}).")
  int threads;

  @Option(
      names = "--shadow-keep",
      defaultValue = "50",
      description = "Differences kept per mapping, the newest (default ${DEFAULT-VALUE}).")
  int keep;

  @Option(
      names = "--shadow-min-headroom",
      defaultValue = "20%",
      paramLabel = "PERCENT",
      description =
          "Skip a candidate, or a call of its own, to a host whose rate-limit headers left less"
              + " than this share of its limit (default 20%%; 0%% never skips).")
  String minHeadroom;

  private ShadowSettings settings;

  /** Checks the values; an {@link IllegalArgumentException} says which is wrong. */
  void check() {
    String percent = minHeadroom.trim();
    if (!percent.matches("\\d{1,3}%")) {
      throw new IllegalArgumentException(
          "--shadow-min-headroom must be a percentage like 20%, not '" + minHeadroom + "'");
    }
    settings =
        new ShadowSettings(
            threads,
            ShadowSettings.DEFAULTS.queue(),
            memoryBudget,
            keep,
            Integer.parseInt(percent.substring(0, percent.length() - 1)),
            ShadowSettings.DEFAULTS.maxRows());
  }

  /** The shadow of {@code runtime}, or null without {@code --shadow}. */
  Shadow start(AppRuntime runtime) {
    if (dirs.isEmpty()) {
      return null;
    }
    if (settings == null) {
      check();
    }
    return ShadowWiring.start(runtime, dirs, settings);
  }
}
