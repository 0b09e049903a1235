package io.github.appsetmapper.testing;

import java.nio.charset.StandardCharsets;

/**
 * A synthetic Helm repository index ({@code index.yaml}) of about the size asked, shaped as public
 * ones are (every version of every chart: annotations, dependencies, keywords, maintainers, a
 * digest, a long description wrapped as go-yaml writes it, single-quoted where it holds ": ", an
 * {@code images: |} annotation as Bitnami's), generated rather than committed.
 */
public final class HelmIndex {
  private HelmIndex() {}

  /** How many versions each chart has: a busy repository keeps every one. */
  static final int VERSIONS_PER_CHART = 120;

  /** The index as block YAML of at least {@code bytes} bytes. */
  public static byte[] yaml(long bytes) {
    StringBuilder out = new StringBuilder((int) Math.min(Integer.MAX_VALUE - 8, bytes + 4096));
    out.append("apiVersion: v1\nentries:\n");
    int entry = 0;
    for (int chart = 0; out.length() < bytes; chart++) {
      String name = "chart-" + chart;
      out.append("  ").append(name).append(":\n");
      for (int v = 0; v < VERSIONS_PER_CHART && out.length() < bytes; v++, entry++) {
        String version = (v / 20) + "." + (v % 20) + "." + (chart % 7);
        out.append("  - annotations:\n")
            .append("      category: Infrastructure\n")
            .append("      images: |\n")
            .append("        - name: os-shell\n")
            .append("          image: docker.io/bitnami/os-shell:12-debian-12-r16\n")
            .append("        - name: ")
            .append(name)
            .append("\n          image: docker.io/bitnami/")
            .append(name)
            .append(':')
            .append(version)
            .append("-debian-12-r9\n")
            .append("      licenses: Apache-2.0\n")
            .append("    apiVersion: v2\n")
            .append("    appVersion: 1.10\n")
            .append("    created: \"2026-11-")
            .append(10 + v % 18)
            .append("T12:34:56.789012345Z\"\n")
            .append("    dependencies:\n")
            .append("    - condition: redis.enabled\n")
            .append("      name: redis\n")
            .append("      repository: oci://registry-1.docker.io/bitnamicharts\n")
            .append("      version: 18.x.x\n")
            .append("    - name: common\n")
            .append("      repository: oci://registry-1.docker.io/bitnamicharts\n")
            .append("      tags:\n")
            .append("      - bitnami-common\n")
            .append("      version: 2.x.x\n")
            .append(
                chart % 7 == 3
                    ? wrapped("    description: '", 4, description(name, chart) + " Note: beta.'")
                    : wrapped("    description: ", 4, description(name, chart)))
            .append("    digest: ")
            .append(digest(entry))
            .append('\n')
            .append("    home: https://charts.example.com\n")
            .append("    icon: https://charts.example.com/icons/")
            .append(name)
            .append(".png\n")
            .append("    keywords:\n    - ")
            .append(name)
            .append("\n    - workflow\n    - dag\n")
            .append("    maintainers:\n    - name: Example, Inc.\n")
            .append("      url: https://github.com/example/charts\n")
            .append("    name: ")
            .append(name)
            .append('\n')
            .append("    sources:\n    - https://github.com/example/charts/tree/main/")
            .append(name)
            .append('\n')
            .append("    urls:\n    - https://charts.example.com/")
            .append(name)
            .append('-')
            .append(version)
            .append(".tgz\n")
            .append("    version: ")
            .append(version)
            .append('\n');
      }
    }
    out.append("generated: \"2026-11-30T12:00:00.000000000Z\"\n");
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** A long description, with some text beyond ASCII as real indexes have. */
  private static String description(String name, int chart) {
    return name
        + " is a tool to express and execute workflows as directed acyclic graphs."
        + (chart % 5 == 0 ? " Caf\u00e9 na\u00efve \u2014 \u65e5\u672c\u8a9e." : "")
        + " It includes utilities to schedule tasks and monitor their progress.";
  }

  /**
   * A plain scalar as Go's yaml (v2, which Helm's sigs.k8s.io/yaml uses) writes one past 80
   * columns: broken at the first space past the 80th column, the next line indented two more than
   * its key at {@code keyColumn}.
   */
  public static String wrapped(String prefix, int keyColumn, String text) {
    StringBuilder out = new StringBuilder(prefix);
    int column = prefix.length();
    String[] words = text.split(" ");
    for (int i = 0; i < words.length; i++) {
      if (i > 0) {
        if (column > 80) {
          out.append('\n').append(" ".repeat(keyColumn + 2));
          column = keyColumn + 2;
        } else {
          out.append(' ');
          column++;
        }
      }
      out.append(words[i]);
      column += words[i].length();
    }
    return out.append('\n').toString();
  }

  private static String digest(int entry) {
    return "%08x".formatted(entry * 0x9E3779B1).repeat(8);
  }
}
