package io.github.appsetmapper.reload;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.compile.CompileOptions;
import io.github.appsetmapper.compile.MappingLoader;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.server.MappingRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The first load is the reloader's own, strict and once; reloads after it load what changed. */
class MappingReloaderTest {
  @TempDir Path dir;

  private final List<MappingRegistry> published = new ArrayList<>();
  private final List<String> reloads = new ArrayList<>();

  private MappingReloader reloader() {
    return new MappingReloader(
        List.of(dir),
        new CompileOptions(Map.of(), name -> null, new Redactor()),
        null,
        published::add,
        reloads::add);
  }

  private void write(String file, String name) throws Exception {
    Files.writeString(dir.resolve(file), "name: " + name + "\nparameters: {a: \"'b'\"}\n");
  }

  @Test
  void theFirstLoadPublishesEveryMappingOnceAndLeavesNothingToReload() throws Exception {
    write("a.yaml", "first");
    write("b.yaml", "second");
    try (MappingReloader reloader = reloader()) {
      MappingLoader.Result loaded = reloader.loadFirst();
      assertThat(loaded.ok()).isTrue();
      assertThat(published).hasSize(1);
      assertThat(published.get(0).names()).containsExactly("first", "second");
      assertThat(published.get(0).status().get("first").source())
          .isEqualTo(dir.resolve("a.yaml").toString());
      assertThat(reloads).containsExactly("ok");
      // Loaded once: the poll right after finds nothing new to load.
      assertThat(reloader.reloadIfChanged()).isFalse();
      write("b.yaml", "renamed");
      assertThat(reloader.reloadIfChanged()).isTrue();
      assertThat(published.get(1).names()).containsExactly("first", "renamed");
    }
  }

  @Test
  void aFirstLoadWithAProblemPublishesNothing() throws Exception {
    write("a.yaml", "first");
    Files.writeString(dir.resolve("bad.yaml"), "name: bad\nparameters: {a: \"'b'\"}\nnope: 1\n");
    try (MappingReloader reloader = reloader()) {
      MappingLoader.Result loaded = reloader.loadFirst();
      assertThat(loaded.ok()).isFalse();
      assertThat(loaded.problems()).hasSize(1);
      assertThat(loaded.problems().get(0).toString()).contains("unknown key 'nope'");
      assertThat(published).isEmpty();
      assertThat(reloads).isEmpty();
    }
  }

  /**
   * The timer loads a change only once the files held still for one interval: a file caught
   * half-written (here a valid mapping without its filter and a parameter) is never served.
   */
  @Test
  void theTimerLoadsAChangeOnlyOnceTheFileHeldStillForALook() throws Exception {
    Path file = dir.resolve("m.yaml");
    String whole = "name: m\nparameters: {a: \"'one'\"}\n";
    String next = "name: m\nparameters:\n  a: \"'two'\"\n  b: \"'three'\"\nfilter: \"1 == 1\"\n";
    Files.writeString(file, whole);
    try (MappingReloader reloader = reloader()) {
      assertThat(reloader.loadFirst().ok()).isTrue();
      assertThat(reloader.lookAndReload()).as("nothing changed").isFalse();
      // Caught mid-write: the first half of the next version, itself a valid mapping.
      Files.writeString(file, next.substring(0, next.indexOf("  b:")));
      assertThat(reloader.lookAndReload()).as("changed since the last look: wait").isFalse();
      Files.writeString(file, next);
      assertThat(reloader.lookAndReload()).as("changed again: wait").isFalse();
      assertThat(published).hasSize(1);
      assertThat(reloader.lookAndReload()).as("held still for a look: loaded").isTrue();
      assertThat(published).hasSize(2);
      assertThat(published.get(1).find("m").orElseThrow().parameters()).hasSize(2);
      assertThat(reloader.lookAndReload()).as("loaded once").isFalse();
      // A removed file is a change like any other: gone after it stayed gone for a look.
      Files.delete(file);
      assertThat(reloader.lookAndReload()).isFalse();
      assertThat(reloader.lookAndReload()).isTrue();
      assertThat(published.get(2).names()).isEmpty();
    }
  }
}
