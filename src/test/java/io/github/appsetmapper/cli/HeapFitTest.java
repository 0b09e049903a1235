package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.ServerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A memory budget larger than half the heap is said at start: a container whose limit gives the JVM
 * a small heap (the image's heap is half the limit) would otherwise be ended by a full budget
 * before any getparams is refused, with nothing in its log to say why.
 */
class HeapFitTest {
  private static final String MAPPING =
      "name: plain\nparameters: {name: input.name}\ninput: {name: {required: false}}\n";

  @Test
  void budgetsWithinHalfTheHeapSayNothing() {
    assertThat(HeapFit.warning(128L << 20, 0, 256L << 20)).isNull();
    assertThat(HeapFit.warning(96L << 20, 32L << 20, 256L << 20)).isNull();
    // The image's flags under the chart's 512Mi limit: SerialGC reports 248 MiB of its 256.
    assertThat(HeapFit.warning(128L << 20, 0, 248L << 20)).isNull();
  }

  @Test
  void aBudgetOverHalfTheHeapIsNamedWithBothSizes() {
    assertThat(HeapFit.warning(128L << 20, 0, 192L << 20))
        .isEqualTo(
            "--memory-budget 128 MiB is more than half of the JVM's heap (192 MiB): answers that"
                + " fill it can end the process before a getparams is refused; lower the budget"
                + " or raise the memory limit (the image's heap is half of it)");
    assertThat(HeapFit.warning(128L << 20, 32L << 20, 256L << 20))
        .startsWith("--memory-budget and --shadow-memory-budget (160 MiB together) is more");
  }

  @Test
  void serveSaysItAtStartUnderASmallHeapOnly(@TempDir Path dir) throws Exception {
    Path mapping = dir.resolve("plain.yaml");
    Files.writeString(mapping, MAPPING);
    List<String> serve =
        List.of(
            "serve",
            "--mappings",
            mapping.toString(),
            "--port",
            "0",
            "--host",
            "127.0.0.1",
            "--insecure-no-auth");
    try (ServerProcess small = ServerProcess.start(List.of("-Xmx160m"), serve)) {
      assertThat(small.text())
          .contains("--memory-budget 128 MiB is more than half of the JVM's heap");
    }
    try (ServerProcess large = ServerProcess.start(List.of("-Xmx600m"), serve)) {
      assertThat(large.text()).doesNotContain("more than half of the JVM's heap");
    }
  }
}
