package io.github.appsetmapper.reload;

import io.github.appsetmapper.compile.CompileOptions;
import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.compile.MappingLoader;
import io.github.appsetmapper.config.Problem;
import io.github.appsetmapper.server.MappingRegistry;
import io.github.appsetmapper.server.MappingStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the served mappings in step with their files. It polls the files' contents rather than
 * watching for events: a Kubernetes ConfigMap update swaps a {@code ..data} symlink, which file
 * watchers report unreliably, while a content digest sees every change. The first load ({@link
 * #loadFirst}) is strict and loads every file at once; later, a file that fails to load keeps its
 * previous mappings serving and reports the error; a removed file's mappings go.
 */
public final class MappingReloader implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger("appset_mapper.reload");

  private final List<Path> paths;

  /**
   * What each bare {@code --var} is bound to grows as mappings arrive: a var no mapping declared at
   * the first load is bound by the first file that loads with it (changed only under this object's
   * lock, by {@link #reloadIfChanged}).
   */
  private CompileOptions options;

  private final String defaultName;
  private final Consumer<MappingRegistry> publish;
  private final Consumer<String> onReload;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread thread = new Thread(r, "mapping-reload");
            thread.setDaemon(true);
            return thread;
          });

  /** What each file gave the last time it loaded well, and its latest content digest. */
  private record FileState(
      String digest, List<CompiledMapping> mappings, Instant loadedAt, String error) {}

  private Map<Path, FileState> files = new TreeMap<>();
  private String fingerprint = "";

  /** What the timer's previous look saw (see {@link #lookAndReload}). */
  private String lastLook = "";

  /**
   * @param publish receives each new registry (the server swaps it in atomically)
   * @param onReload receives "ok" or "error" after each reload that changed something
   */
  public MappingReloader(
      List<Path> paths,
      CompileOptions options,
      String defaultName,
      Consumer<MappingRegistry> publish,
      Consumer<String> onReload) {
    this.paths = List.copyOf(paths);
    this.options = options;
    this.defaultName = defaultName;
    this.publish = publish;
    this.onReload = onReload;
  }

  public void start(Duration interval) {
    timer.scheduleWithFixedDelay(
        () -> {
          // A task that throws is never run again: nothing but a dying JVM may end the reloads.
          try {
            lookAndReload();
          } catch (Throwable e) {
            rethrowFatal(e);
            LOG.error("mapping reload failed", e);
          }
        },
        interval.toMillis(),
        interval.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  /**
   * The first load: every file at once ({@link MappingLoader#load}), so that each bare {@code
   * --var} is bound to what the mappings declaring it say it is, and strict: when anything fails
   * nothing is published and the result says why (a server then refuses to start, so a rollout
   * stalls while the old pods serve). When all loaded, each file is kept as a reload would have
   * loaded it, the registry is published, and later reloads use the bound vars.
   */
  public synchronized MappingLoader.Result loadFirst() {
    Map<Path, String> digests = digests();
    MappingLoader.Result loaded = MappingLoader.load(paths, options);
    if (!loaded.ok()) {
      return loaded;
    }
    options = loaded.options();
    Map<String, List<CompiledMapping>> bySource = new LinkedHashMap<>();
    for (CompiledMapping mapping : loaded.mappings()) {
      bySource.computeIfAbsent(mapping.sourceFile(), f -> new ArrayList<>()).add(mapping);
    }
    Instant now = Instant.now();
    Map<Path, FileState> first = new TreeMap<>();
    digests.forEach(
        (file, digest) ->
            first.put(
                file,
                new FileState(
                    digest,
                    List.copyOf(bySource.getOrDefault(file.toString(), List.of())),
                    now,
                    null)));
    files = first;
    fingerprint = digests.toString();
    lastLook = fingerprint;
    publish.accept(registry(Map.of(), first.keySet()));
    onReload.accept("ok");
    return loaded;
  }

  /**
   * The timer's look: loads a change once the files have held still for one interval, the same
   * content at two looks in a row, so that a file caught while it is being written (a copy, an
   * editor or a script writing in steps) is not loaded half-written: a half file may well be a
   * valid mapping that lacks a parameter or a filter. True when it loaded.
   */
  public synchronized boolean lookAndReload() {
    Map<Path, String> digests = digests();
    String now = digests.toString();
    boolean settled = now.equals(lastLook);
    lastLook = now;
    return settled && reload(digests);
  }

  /** Loads again when any file's content, or the set of files, changed; true when it did. */
  public synchronized boolean reloadIfChanged() {
    return reload(digests());
  }

  private boolean reload(Map<Path, String> digests) {
    String now = digests.toString();
    if (now.equals(fingerprint)) {
      return false;
    }
    fingerprint = now;
    Map<Path, FileState> next = new TreeMap<>();
    List<Path> loadedWell = new ArrayList<>();
    java.util.Set<Path> changed = new java.util.HashSet<>();
    boolean failed = false;
    for (Map.Entry<Path, String> entry : digests.entrySet()) {
      Path file = entry.getKey();
      FileState previous = files.get(file);
      if (previous != null && previous.digest().equals(entry.getValue())) {
        next.put(file, previous);
        failed |= previous.error() != null;
        continue;
      }
      MappingLoader.Result result = load(file);
      changed.add(file);
      if (result.ok()) {
        if (result.options() != null) {
          options = result.options();
        }
        next.put(file, new FileState(entry.getValue(), result.mappings(), Instant.now(), null));
        loadedWell.add(file);
      } else {
        failed = true;
        String error =
            result.problems().stream().map(Problem::toString).collect(Collectors.joining("; "));
        LOG.error(
            "{} did not load{}: {}",
            file,
            previous == null || previous.mappings().isEmpty()
                ? ""
                : ", its previous version keeps serving " + names(previous.mappings()),
            error);
        List<CompiledMapping> kept = previous == null ? List.of() : previous.mappings();
        Instant loadedAt = previous == null ? null : previous.loadedAt();
        next.put(file, new FileState(entry.getValue(), kept, loadedAt, error));
      }
    }
    Map<Path, FileState> previousFiles = files;
    files = next;
    MappingRegistry registry = registry(previousFiles, changed);
    publish.accept(registry);
    // Said once it is true: the new registry answers (a line written before the swap announced a
    // version that the server did not serve yet).
    logLoaded(loadedWell, previousFiles);
    for (Map.Entry<Path, FileState> gone : previousFiles.entrySet()) {
      if (!next.containsKey(gone.getKey()) && !gone.getValue().mappings().isEmpty()) {
        LOG.info(
            "{} is gone: no longer serving {}", gone.getKey(), names(gone.getValue().mappings()));
      }
    }
    onReload.accept(failed || refusedNames ? "error" : "ok");
    return true;
  }

  /**
   * One line per file that loaded, written once the registry that serves it is published, naming
   * only the mappings it serves now: a mapping refused its name is told by the refusal line alone
   * (a file all of whose mappings were refused gets no "loaded" line, which would say it serves
   * what it does not).
   */
  private void logLoaded(List<Path> loaded, Map<Path, FileState> previousFiles) {
    for (Path file : loaded) {
      List<CompiledMapping> all = files.get(file).mappings();
      List<CompiledMapping> served =
          all.stream().filter(m -> file.equals(owners.get(m.name()))).toList();
      if (!all.isEmpty() && served.isEmpty()) {
        continue;
      }
      if (previousFiles.containsKey(file)) {
        LOG.info("reloaded {}: {}", file, names(served));
      } else {
        LOG.info("loaded new file {}: {}", file, names(served));
      }
    }
  }

  /**
   * Loads one file; whatever goes wrong with it becomes its problem, so that one bad file never
   * ends the reloads of the others. A stack overflow is survivable (the stack has unwound when it
   * is caught); other VirtualMachineErrors (out of memory) are not and go on.
   */
  private MappingLoader.Result load(Path file) {
    try {
      return MappingLoader.loadFile(file, options);
    } catch (Throwable e) {
      rethrowFatal(e);
      LOG.error("{} could not be loaded", file, e);
      return new MappingLoader.Result(
          List.of(),
          List.of(
              new Problem(
                  new io.github.appsetmapper.config.Pos(file.toString(), 1, 1, ""),
                  "could not be loaded: "
                      + e.getClass().getSimpleName()
                      + (e.getMessage() == null ? "" : ": " + e.getMessage()))));
    }
  }

  private static void rethrowFatal(Throwable e) {
    if (e instanceof VirtualMachineError fatal && !(e instanceof StackOverflowError)) {
      throw fatal;
    }
  }

  /**
   * Duplicate names logged already: a registry is built at every reload, and the same error logged
   * at each reload of any other file would read as a new one.
   */
  private java.util.Set<String> loggedDuplicates = java.util.Set.of();

  /** The file serving each name in the registry published last: it keeps the name. */
  private Map<String, Path> owners = Map.of();

  /** Whether the registry built last refused a name some file claims. */
  private boolean refusedNames;

  /**
   * The registry of the files as they are. A name claimed by two files stays with the file that
   * served it (whatever the files' order), and the newcomer is refused and named; a name nobody
   * served yet that two files claim at once is served by neither until one gives it up. A file
   * renamed (the serving file gone and a file new at this reload with its very content) keeps the
   * name, even while a refused newcomer waits for it.
   *
   * @param previousFiles the files as they were at the reload before
   * @param changed the files loaded at this reload: a refusal of one of them is logged again
   */
  private MappingRegistry registry(
      Map<Path, FileState> previousFiles, java.util.Set<Path> changed) {
    Map<String, List<Path>> claimants = new LinkedHashMap<>();
    files.forEach(
        (file, state) ->
            state
                .mappings()
                .forEach(
                    m -> claimants.computeIfAbsent(m.name(), n -> new ArrayList<>()).add(file)));
    Map<String, Path> winners = new LinkedHashMap<>();
    claimants.forEach(
        (name, claiming) -> {
          Path owner = owners.get(name);
          if (claiming.size() == 1) {
            winners.put(name, claiming.get(0));
          } else if (owner != null && claiming.contains(owner)) {
            winners.put(name, owner);
          } else {
            Path renamed = renamed(owner, claiming, previousFiles);
            if (renamed != null) {
              winners.put(name, renamed);
            }
          }
        });
    java.util.Set<String> duplicates = new java.util.HashSet<>();
    List<CompiledMapping> mappings = new ArrayList<>();
    Map<String, MappingStatus> status = new LinkedHashMap<>();
    List<String> failures = new ArrayList<>();
    for (Map.Entry<Path, FileState> entry : files.entrySet()) {
      FileState state = entry.getValue();
      if (state.mappings().isEmpty() && state.error() != null) {
        failures.add(state.error());
      }
      for (CompiledMapping mapping : state.mappings()) {
        Path winner = winners.get(mapping.name());
        if (!entry.getKey().equals(winner)) {
          String error = clash(mapping, entry.getKey(), winner, claimants.get(mapping.name()));
          duplicates.add(error);
          if (!loggedDuplicates.contains(error) || changed.contains(entry.getKey())) {
            LOG.error(error);
          }
          failures.add(error);
          continue;
        }
        mappings.add(mapping);
        status.put(
            mapping.name(),
            new MappingStatus(entry.getKey().toString(), state.loadedAt(), state.error()));
      }
    }
    loggedDuplicates = java.util.Set.copyOf(duplicates);
    refusedNames = !duplicates.isEmpty();
    owners = java.util.Map.copyOf(winners);
    String fallback = defaultName != null && !status.containsKey(defaultName) ? null : defaultName;
    if (defaultName != null && fallback == null) {
      failures.add("--default-mapping '" + defaultName + "' is not loaded");
    }
    return MappingRegistry.of(mappings, fallback, status, failures);
  }

  /**
   * The file {@code owner} was renamed to at this reload, among {@code claiming}: {@code owner} no
   * longer exists, and exactly one claimant, new at this reload, holds the content {@code owner}
   * held (a {@code mv}, or a ConfigMap key renamed). Null when there is none or it is ambiguous.
   */
  private Path renamed(Path owner, List<Path> claiming, Map<Path, FileState> previousFiles) {
    FileState was = owner == null ? null : previousFiles.get(owner);
    if (was == null || files.containsKey(owner)) {
      return null;
    }
    List<Path> same =
        claiming.stream()
            .distinct()
            .filter(p -> !previousFiles.containsKey(p))
            .filter(p -> files.get(p).digest().equals(was.digest()))
            .toList();
    return same.size() == 1 ? same.get(0) : null;
  }

  /** Why {@code file}'s mapping is refused its name, naming the file that keeps it (if any). */
  private static String clash(
      CompiledMapping mapping, Path file, Path winner, List<Path> claimants) {
    String others =
        claimants.stream()
            .filter(p -> !p.equals(file))
            .distinct()
            .map(Path::toString)
            .collect(Collectors.joining(", "));
    String head =
        mapping.namePos() + ": duplicate mapping name '" + mapping.name() + "' (also in " + others;
    return winner != null
        ? head + "): " + winner + " serves it and keeps it; this one is refused"
        : head + "): served by neither until one of them gives the name up";
  }

  private Map<Path, String> digests() {
    return MappingFiles.digests(paths);
  }

  private static String names(List<CompiledMapping> mappings) {
    return mappings.stream().map(CompiledMapping::name).collect(Collectors.joining(", "));
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
