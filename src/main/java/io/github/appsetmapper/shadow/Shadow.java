package io.github.appsetmapper.shadow;

import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.compile.MappingLoader;
import io.github.appsetmapper.config.Problem;
import io.github.appsetmapper.diff.DiffPlain;
import io.github.appsetmapper.diff.InputDiff;
import io.github.appsetmapper.diff.Outcome;
import io.github.appsetmapper.engine.Answer;
import io.github.appsetmapper.engine.Engine;
import io.github.appsetmapper.engine.Invocation;
import io.github.appsetmapper.engine.Trace;
import io.github.appsetmapper.expr.EvaluationBudget;
import io.github.appsetmapper.expr.ExpressionLimitException;
import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.metrics.Metrics;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.server.ErrorAnswer;
import io.github.appsetmapper.server.ErrorAnswers;
import io.github.appsetmapper.server.Shadowing;
import io.github.appsetmapper.upstream.call.Deadline;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shadow mode ({@code serve --shadow DIR}): each candidate mapping (matched to a live one by name)
 * runs on the input of every live getparams, after the live answer has gone, on an executor and an
 * engine of its own (its own memory budget, no cache entries, its own {@code maxDrop} memory: never
 * the live ones, never Redis). A call identical to one the live getparams made is answered with the
 * live answer; any other goes to the upstream only while its rate-limit headroom lasts. What the
 * candidate would change is counted in metrics and the newest differences kept, redacted, for
 * {@code GET /mappings/<name>/shadow}. Nothing here can change, delay or fail a live answer: the
 * hand-off only queues (a full queue skips the run), and every failure stays in the shadow.
 */
public final class Shadow implements Shadowing, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger("appset_mapper.shadow");

  private final Engine engine;
  private final LiveAnswers live;
  private final Map<String, CompiledMapping> candidates = new LinkedHashMap<>();
  private final List<String> problems = new ArrayList<>();
  private final ShadowSettings settings;
  private final Metrics metrics;
  private final Redactor redactor;
  private final ErrorAnswers errors;
  private final ThreadPoolExecutor runner;
  private final ExecutorService enrich;
  private final AutoCloseable transport;
  private final Differences differences;
  private final AtomicLong queuedBytes = new AtomicLong();

  /**
   * @param engine the candidates' engine, whose stack has {@code live} at its front
   * @param loaded the candidates as loaded: those that failed are reported, never fatal
   * @param enrich the candidates' enrich pool, closed with this
   * @param transport the candidates' own connections (their own per-host slots), closed with this
   */
  public Shadow(
      Engine engine,
      LiveAnswers live,
      MappingLoader.Result loaded,
      ShadowSettings settings,
      Metrics metrics,
      Redactor redactor,
      ExecutorService enrich,
      AutoCloseable transport) {
    this.engine = engine;
    this.transport = transport;
    this.live = live;
    this.settings = settings;
    this.metrics = metrics;
    this.redactor = redactor;
    this.errors = new ErrorAnswers(redactor);
    this.enrich = enrich;
    // A quarter of the shadow's own budget: what candidates keep never reaches the live share.
    this.differences = new Differences(settings.keep(), settings.memoryBudget() / 4);
    loaded.mappings().forEach(m -> candidates.put(m.name(), m));
    for (Problem p : loaded.problems()) {
      problems.add(redactor.redact(p.toString()));
    }
    loaded.varErrors().forEach(e -> problems.add(redactor.redact(e)));
    AtomicInteger count = new AtomicInteger();
    this.runner =
        new ThreadPoolExecutor(
            settings.threads(),
            settings.threads(),
            0,
            TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(settings.queue()),
            r -> {
              Thread thread = new Thread(r, "shadow-" + count.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    metrics.shadowCandidates(candidates.size(), problems.size());
    problems.forEach(
        p -> LOG.error("shadow candidate does not load (the live mappings serve): {}", p));
    if (!candidates.isEmpty()) {
      LOG.info("shadow candidates: {}", String.join(", ", candidates.keySet()));
    }
  }

  /** The candidates that loaded, by name. */
  public java.util.Set<String> candidates() {
    return java.util.Collections.unmodifiableSet(candidates.keySet());
  }

  /** Candidate calls answered from a live call's answers, and made to the upstream, since start. */
  public long sharedCalls() {
    return live.shared();
  }

  public long madeCalls() {
    return live.made();
  }

  /** Cache entries the candidates keep: none, by construction (their budget has no cache share). */
  public long cachedEntries() {
    return engine.calls().cachedEntries();
  }

  @Override
  public Trace watch(CompiledMapping mapping, Trace trace) {
    return candidates.containsKey(mapping.name())
        ? new CapturingTrace(trace, settings.memoryBudget() / 2)
        : trace;
  }

  @Override
  public void after(
      CompiledMapping mapping,
      Invocation invocation,
      Trace watched,
      List<Map<String, Object>> rows,
      ErrorAnswer failure) {
    CompiledMapping candidate = candidates.get(mapping.name());
    if (candidate == null) {
      return;
    }
    CapturingTrace captured = watched instanceof CapturingTrace c ? c : null;
    String low = captured == null ? null : live.headroom().lowOn(captured.hosts());
    if (low != null) {
      skipped(mapping.name(), "headroom");
      return;
    }
    long bytes = captured == null ? 0 : captured.bytes();
    // A full queue is the common case under a hanging candidate: refused without an exception.
    if (runner.getQueue().remainingCapacity() == 0) {
      skipped(mapping.name(), "busy");
      return;
    }
    if (queuedBytes.addAndGet(bytes) > settings.memoryBudget()) {
      queuedBytes.addAndGet(-bytes);
      skipped(mapping.name(), "busy");
      return;
    }
    Outcome liveOutcome =
        rows != null ? Outcome.rows(rows) : Outcome.failed(failure.status(), failure.message());
    try {
      runner.execute(
          () -> {
            try {
              run(mapping, candidate, invocation, captured, liveOutcome);
            } catch (RuntimeException | StackOverflowError e) {
              LOG.error("shadow run of {} failed", mapping.name(), redactor.scrub(e));
            } finally {
              queuedBytes.addAndGet(-bytes);
            }
          });
    } catch (RejectedExecutionException e) {
      queuedBytes.addAndGet(-bytes);
      skipped(mapping.name(), "busy");
    }
  }

  private void skipped(String mapping, String why) {
    differences.run(mapping, "skipped_" + why);
    metrics.shadowRun(mapping, "skipped_" + why);
  }

  private void run(
      CompiledMapping liveMapping,
      CompiledMapping candidate,
      Invocation invocation,
      CapturingTrace captured,
      Outcome liveOutcome) {
    Map<String, UpstreamResponse> answers = captured == null ? Map.of() : captured.answers();
    // The comparison ends with the candidate's deadline: it grows with both answers.
    Deadline deadline = Deadline.after(candidate.deadline());
    live.begin(answers);
    Outcome outcome;
    try {
      outcome = Outcome.rows(engine.execute(candidate, invocation));
    } catch (Exception | StackOverflowError e) {
      ErrorAnswer answer = errors.map(e);
      if (answer.message().contains(LiveAnswers.LOW_HEADROOM)) {
        skipped(candidate.name(), "headroom");
        return;
      }
      outcome = Outcome.failed(answer.status(), answer.message());
    } finally {
      live.end(answers);
    }
    List<String> key = !candidate.key().isEmpty() ? candidate.key() : liveMapping.key();
    InputDiff diff;
    Map<String, Object> kept = null;
    try (EvaluationBudget.Scope scope = EvaluationBudget.until(deadline.endNanos())) {
      diff =
          InputDiff.of(
              JsonCodec.write(invocation.parameters()),
              invocation.applicationSetName(),
              invocation.parameters(),
              key,
              liveOutcome,
              outcome);
      if (diff.changed()) {
        kept = DiffPlain.input(diff, redactor::redact, settings.maxRows());
      }
    } catch (ExpressionLimitException e) {
      if (!e.deadline()) {
        throw e;
      }
      skipped(candidate.name(), "deadline");
      return;
    }
    String name = candidate.name();
    String result = !diff.changed() ? "same" : outcome.failed() ? "failed" : "different";
    if (diff.changed()) {
      differences.difference(name, kept);
      LOG.info(
          "shadow mapping={} appset={} result={} added={} removed={} changed={}",
          name,
          errors.appSet(invocation.applicationSetName()),
          result,
          diff.added(),
          diff.removed(),
          diff.changedRows());
    }
    // Counted last: a run counted is a run whose difference is already kept.
    metrics.shadowRows(name, diff.added(), diff.removed(), diff.changedRows());
    metrics.shadowRun(name, result);
    differences.run(name, result);
  }

  @Override
  public Answer candidate(String name, Invocation invocation) throws RequestFailure {
    CompiledMapping candidate = candidates.get(name);
    return candidate == null ? null : engine.answer(candidate, invocation, Trace.NONE);
  }

  @Override
  public String report(String name) {
    CompiledMapping candidate = candidates.get(name);
    if (candidate == null && problems.isEmpty()) {
      return null;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("mapping", name);
    if (candidate != null) {
      Map<String, Object> loaded = new LinkedHashMap<>();
      loaded.put("source", redactor.redact(String.valueOf(candidate.sourceFile())));
      loaded.put("key", candidate.key());
      out.put("candidate", loaded);
    } else {
      out.put("candidate", null);
    }
    out.put("loadProblems", List.copyOf(problems));
    out.put("runs", differences.runs(name));
    out.put("differences", differences.newest(name));
    return JsonCodec.writePretty(out, false);
  }

  @Override
  public void close() {
    runner.shutdownNow();
    enrich.shutdownNow();
    try {
      transport.close();
    } catch (Exception e) {
      // Closing the candidates' connections never fails the server's stop.
    }
  }
}
