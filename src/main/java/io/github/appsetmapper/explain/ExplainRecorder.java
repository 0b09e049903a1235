package io.github.appsetmapper.explain;

import io.github.appsetmapper.engine.Trace;
import io.github.appsetmapper.engine.UpstreamCall;
import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.upstream.cache.MemoryBudget;
import io.github.appsetmapper.upstream.cache.SharedCalls;
import io.github.appsetmapper.upstream.call.Headers;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A {@link Trace} that remembers what the engine reports and builds the {@link ExplainReport}.
 * Everything is redacted as it is recorded: URLs and messages by the engine's {@link Redactor},
 * credential headers (auth, headers whose template reads a secret, and Authorization, Cookie and
 * their kin whatever they hold) replaced by {@code ***}. Thread-safe.
 *
 * <p>What it keeps is bounded twice: by count (the first {@link #KEEP_DROPS} drops of a stage, the
 * rest counted by reason; the first {@link #KEEP_ROWS} rows' parameters and {@link #KEEP_CALLS}
 * calls, the rest counted) and by the server's one memory budget, from which every kept entry is
 * reserved until the report is built: when the budget is short, entries are counted, not kept. A
 * filter dropping 300,000 rows is 50 listed drops and one line of counts, never 300,000 reasons.
 */
final class ExplainRecorder implements Trace {
  static final int KEEP_DROPS = 50;
  static final int KEEP_REASONS = 20;
  static final int KEEP_ROWS = 100;
  static final int KEEP_CALLS = 500;

  private final Redactor redactor;
  private final MemoryBudget budget;
  private long reserved;
  private long callsOmitted;
  private long rowsOmitted;
  private final Map<String, Map<String, Long>> moreDrops = new LinkedHashMap<>();
  private final long started = System.nanoTime();
  private final List<ExplainReport.Call> calls = new ArrayList<>();

  /**
   * Each call's start ({@link System#nanoTime()}) by its place in {@link #calls}, to order them.
   */
  private final Map<Integer, Long> starts = new java.util.HashMap<>();

  private final List<String> stageOrder = new ArrayList<>();
  private final Map<String, Integer> stageRows = new LinkedHashMap<>();
  private final Map<String, List<ExplainReport.Drop>> drops = new LinkedHashMap<>();
  private final List<ExplainReport.RowParameters> rows = new ArrayList<>();

  ExplainRecorder(Redactor redactor, MemoryBudget budget) {
    this.redactor = redactor;
    this.budget = budget;
  }

  /** Reserves {@code bytes} (an estimate of an entry kept); false when the budget has no room. */
  private boolean room(long bytes) {
    if (budget != null && !budget.reserve(bytes)) {
      return false;
    }
    reserved += bytes;
    return true;
  }

  /** Gives back what the kept entries took from the budget (the report is built). */
  synchronized void release() {
    if (budget != null) {
      budget.unreserve(reserved);
    }
    reserved = 0;
  }

  @Override
  public synchronized void call(UpstreamCall call) {
    if (calls.size() >= KEEP_CALLS || !room(2L * call.request().uri().toString().length() + 512)) {
      callsOmitted++;
      return;
    }
    SharedCalls.Source source = call.source();
    String cache =
        source == null || source == SharedCalls.Source.NETWORK
            ? null
            : source == SharedCalls.Source.STALE
                ? "stale: " + redactor.redact(String.valueOf(call.staleBecause()))
                : source.name().toLowerCase(java.util.Locale.ROOT);
    long now = System.nanoTime();
    long startedAt = call.startedAt() != 0 ? call.startedAt() : now - call.nanos();
    starts.put(calls.size(), startedAt);
    calls.add(
        new ExplainReport.Call(
            call.step(),
            call.page(),
            call.request().method(),
            redactor.redact(call.request().uri().toString()),
            headers(call.request()),
            call.response() == null ? null : call.response().status(),
            call.error() == null ? null : redactor.redact(call.error()),
            millis(startedAt - started),
            millis(call.nanos()),
            call.shared(),
            cache));
  }

  @Override
  public synchronized void stage(String stage, int count) {
    see(stage);
    stageRows.put(stage, count);
  }

  @Override
  public synchronized void dropped(String stage, int row, String label, String reason) {
    see(stage);
    List<ExplainReport.Drop> kept = drops.get(stage);
    long size = (label == null ? 0 : label.length()) + (reason == null ? 0 : reason.length());
    if (kept.size() < KEEP_DROPS && room(2 * size + 96)) {
      kept.add(
          new ExplainReport.Drop(
              row, label == null ? null : redactor.redact(label), redactor.redact(reason)));
      return;
    }
    Map<String, Long> more = moreDrops.computeIfAbsent(stage, s -> new LinkedHashMap<>());
    // Counted by reason, the reasons themselves bounded: an enrich error can differ by row.
    String key = more.containsKey(reason) || more.size() < KEEP_REASONS ? reason : null;
    if (key != null && !more.containsKey(key) && !room(2L * key.length() + 96)) {
      key = null;
    }
    more.merge(key, 1L, Long::sum);
  }

  @Override
  public boolean explaining() {
    return true;
  }

  @Override
  public synchronized void parameters(int row, String element, Map<String, Object> parameters) {
    // The answer holds every row's parameters already (counted by the engine): these are a view.
    if (rows.size() >= KEEP_ROWS || !room(JsonCodec.estimate(parameters))) {
      rowsOmitted++;
      return;
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> clean = (Map<String, Object>) Redaction.deep(parameters, redactor);
    rows.add(new ExplainReport.RowParameters(row, element, clean));
  }

  private void see(String stage) {
    if (!drops.containsKey(stage)) {
      stageOrder.add(stage);
      drops.put(stage, new ArrayList<>());
    }
  }

  @SuppressWarnings("unchecked")
  synchronized ExplainReport report(
      String mapping,
      String applicationSetName,
      Map<String, Object> input,
      ExplainReport.Answer answer) {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < calls.size(); i++) {
      order.add(i);
    }
    // By the exact start, not the rounded millis: a call's auth calls start within it.
    order.sort(Comparator.comparingLong(starts::get));
    List<ExplainReport.Call> inOrder = new ArrayList<>();
    order.forEach(i -> inOrder.add(calls.get(i)));
    List<ExplainReport.Stage> stages = new ArrayList<>();
    for (String name : stageOrder) {
      List<ExplainReport.MoreDrops> more = new ArrayList<>();
      moreDrops
          .getOrDefault(name, Map.of())
          .forEach(
              (reason, count) ->
                  more.add(
                      new ExplainReport.MoreDrops(
                          reason == null ? null : redactor.redact(reason), count)));
      stages.add(new ExplainReport.Stage(name, stageRows.get(name), drops.get(name), more));
    }
    ExplainReport.Answer clean =
        new ExplainReport.Answer(
            answer.status(), (Map<String, Object>) Redaction.deep(answer.body(), redactor));
    return new ExplainReport(
        mapping,
        applicationSetName == null ? null : redactor.redact(applicationSetName),
        (Map<String, Object>) Redaction.deep(input, redactor),
        inOrder,
        stages,
        rows,
        clean,
        callsOmitted,
        rowsOmitted);
  }

  private Map<String, String> headers(UpstreamRequest request) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Headers.Header h : request.headers().fields()) {
      String lower = h.name().toLowerCase(Locale.ROOT);
      boolean hidden =
          io.github.appsetmapper.secret.CredentialHeaders.is(lower)
              || request.sensitiveHeaders().contains(lower);
      out.merge(h.name(), hidden ? "***" : redactor.redact(h.value()), (a, b) -> a + ", " + b);
    }
    var auth = request.settings().auth();
    if (auth != null
        && out.keySet().stream()
            .noneMatch(name -> name.equalsIgnoreCase(auth.credentialHeader()))) {
      // Added below the trace, by the auth layer: shown as sent, never with its value.
      out.put(auth.credentialHeader(), "***");
    }
    return Collections.unmodifiableMap(out);
  }

  private static double millis(long nanos) {
    return Math.round(nanos / 100_000.0) / 10.0;
  }
}
