package io.github.appsetmapper.engine;

import com.github.benmanes.caffeine.cache.Ticker;
import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.config.Durations;
import io.github.appsetmapper.expr.EvaluationBudget;
import io.github.appsetmapper.expr.ExpressionLimitException;
import io.github.appsetmapper.secret.DerivedSecrets;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.upstream.RetryingUpstream;
import io.github.appsetmapper.upstream.auth.AuthorizingUpstream;
import io.github.appsetmapper.upstream.cache.MemoryBudget;
import io.github.appsetmapper.upstream.cache.SharedCalls;
import io.github.appsetmapper.upstream.cache.SharedLevel;
import io.github.appsetmapper.upstream.call.Deadline;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.Upstream;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * Executes a compiled mapping for one getparams: list, enrich, filter, sort, distinct, limit,
 * parameters. Every failure is an exception (never an empty answer) whose message names the
 * mapping, the step and the cause, scrubbed of secrets.
 */
public final class Engine {
  private final SharedCalls calls;
  private final ExecutorService pool;
  private final Redactor redactor;
  private final DropGuard guard;
  private final boolean shared;
  private final SharedAnswers answers = new SharedAnswers();
  private final Clock clock;
  private final GetparamsTracing tracing;

  /**
   * What replicas share (the listing cache and coalescing, the {@code maxDrop} baselines); {@link
   * #ALONE} for a replica on its own.
   */
  public record Sharing(SharedLevel listings, BaselineStore baselines) {
    public static final Sharing ALONE = new Sharing(SharedLevel.NONE, BaselineStore.NONE);
  }

  private Engine(
      SharedCalls calls,
      DropGuard guard,
      boolean shared,
      ExecutorService pool,
      Redactor redactor,
      Clock clock,
      GetparamsTracing tracing) {
    this.clock = clock;
    this.tracing = tracing;
    this.calls = calls;
    this.guard = guard;
    this.shared = shared;
    this.pool = pool;
    this.redactor = redactor;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Puts an engine together over a transport (HTTP, recorded exchanges, a test's). The upstream
   * stack is built here and nowhere else, outermost first: {@link SharedCalls} (cache, coalescing,
   * memory budget), {@link AuthorizingUpstream} (tokens), {@link RetryingUpstream}, the transport.
   */
  public static final class Builder {
    private Upstream transport;
    private ExecutorService pool;
    private Redactor redactor;
    private Clock clock = Clock.systemUTC();
    private MemoryBudget budget;
    private Ticker ticker = Ticker.systemTicker();
    private Sharing sharing = Sharing.ALONE;
    private GetparamsTracing tracing = GetparamsTracing.OFF;
    private java.util.function.UnaryOperator<Upstream> front =
        java.util.function.UnaryOperator.identity();

    private Builder() {}

    /**
     * A decorator between the shared calls and auth: sees each call as the mapping rendered it,
     * before a token is fetched (shadow mode answers there from the live call's answers).
     */
    public Builder front(java.util.function.UnaryOperator<Upstream> value) {
      this.front = value;
      return this;
    }

    /** How calls reach the upstream; the engine adds retries, auth and sharing on top. */
    public Builder transport(Upstream value) {
      this.transport = value;
      return this;
    }

    /** Where enrich requests run, at most {@code concurrency} of a mapping at once. */
    public Builder pool(ExecutorService value) {
      this.pool = value;
      return this;
    }

    public Builder redactor(Redactor value) {
      this.redactor = value;
      return this;
    }

    /** What decides when cached tokens expire (default: the system's). */
    public Builder clock(Clock value) {
      this.clock = value;
      return this;
    }

    /** Memory for upstream answers in flight and in the cache (default 128 MiB). */
    public Builder memoryBudget(MemoryBudget value) {
      this.budget = value;
      return this;
    }

    /** What tells the answer cache the time (default: the system's monotonic clock). */
    public Builder ticker(Ticker value) {
      this.ticker = value;
      return this;
    }

    /** What replicas share ({@code serve --redis}); default: this replica alone. */
    public Builder sharing(Sharing value) {
      this.sharing = value;
      return this;
    }

    /** Distributed tracing of getparams (default: off). */
    public Builder tracing(GetparamsTracing value) {
      this.tracing = value;
      return this;
    }

    public Engine build() {
      MemoryBudget memory = budget != null ? budget : new MemoryBudget(MemoryBudget.DEFAULT_BYTES);
      Upstream stack =
          front.apply(new AuthorizingUpstream(new RetryingUpstream(transport), redactor, clock));
      return new Engine(
          new SharedCalls(stack, memory, ticker, sharing.listings()),
          new DropGuard(sharing.baselines()),
          sharing != Sharing.ALONE,
          pool,
          redactor,
          clock,
          tracing);
    }
  }

  /** Distributed tracing of getparams; {@link GetparamsTracing#OFF} unless configured. */
  public GetparamsTracing tracing() {
    return tracing;
  }

  /** Whether replicas share the cache and baselines (they may still be unreachable now). */
  public boolean shared() {
    return shared;
  }

  public Redactor redactor() {
    return redactor;
  }

  /** Getparams waiting now for the answer of an identical one in flight. */
  public int waitingGetparams() {
    return answers.waiting();
  }

  public SharedCalls calls() {
    return calls;
  }

  /**
   * Sets the {@code maxDrop} baseline of one input as if its last good answer had had {@code rows}
   * rows (a test case's {@code baseline}); the input is validated, defaults applied, as a getparams
   * would be.
   */
  public void seedBaseline(CompiledMapping mapping, Invocation invocation, int rows)
      throws RequestFailure {
    Map<String, Object> input = InputValidator.validate(mapping, invocation.parameters());
    guard.seed(mapping.name(), InputKeys.of(input), invocation.applicationSetName(), rows);
  }

  /** The {@code maxDrop} baselines (kept across mapping reloads). */
  public DropGuard guard() {
    return guard;
  }

  /**
   * One getparams answer for the server, its wire JSON written within the deadline ({@link
   * Answer#body}): identical getparams in flight (same compiled mapping, input and ApplicationSet)
   * are computed once and the answer shared.
   */
  public Answer answer(CompiledMapping mapping, Invocation invocation, Trace trace)
      throws RequestFailure {
    long now = System.nanoTime();
    return answers.compute(
        mapping, invocation, () -> compute(mapping, invocation, trace, now, true));
  }

  /**
   * As {@link #answer(CompiledMapping, Invocation, Trace)}, the deadline measured from {@code
   * arrivedNanos} (the {@link System#nanoTime()} the request arrived at) and, when {@code steps} is
   * positive and the mapping makes no call, within a slice of that many evaluation steps on this
   * thread ({@link EvaluationBudget#slice}).
   *
   * @return the answer, or null when the slice ran out: the run was abandoned before any guard
   *     counted it, and the caller runs it again without a slice (a mapping that makes no call is
   *     pure, and is never coalesced: {@link SharedAnswers})
   */
  public Answer answer(
      CompiledMapping mapping, Invocation invocation, Trace trace, long arrivedNanos, int steps)
      throws RequestFailure {
    if (steps <= 0 || makesCalls(mapping)) {
      return answers.compute(
          mapping, invocation, () -> compute(mapping, invocation, trace, arrivedNanos, true));
    }
    EvaluationBudget.slice(steps);
    try {
      Answer answer = compute(mapping, invocation, trace, arrivedNanos, true);
      return EvaluationBudget.sliceSpent() ? null : answer;
    } catch (RequestFailure | RuntimeException e) {
      if (EvaluationBudget.sliceSpent()) {
        return null;
      }
      throw e;
    } finally {
      EvaluationBudget.endSlice();
    }
  }

  /**
   * Marks the cached upstream answers {@code mapping} used as expired: all of them, or those of one
   * input when {@code parameters} is non-null.
   *
   * @return how many of this replica's cache entries were marked, and whether every replica sees it
   */
  public SharedCalls.Invalidated invalidate(CompiledMapping mapping, Map<String, Object> parameters)
      throws RequestFailure {
    String tag =
        parameters == null
            ? mappingTag(mapping)
            : inputTag(mapping, InputKeys.of(InputValidator.validate(mapping, parameters)));
    return calls.invalidate(tag);
  }

  /**
   * Forgets the {@code maxDrop} baselines of {@code mapping}: all, or one input's when {@code
   * parameters} is non-null (of one ApplicationSet when {@code applicationSet} is non-empty).
   */
  public DropGuard.Reset resetGuard(
      CompiledMapping mapping, Map<String, Object> parameters, String applicationSet)
      throws RequestFailure {
    String input =
        parameters == null ? null : InputKeys.of(InputValidator.validate(mapping, parameters));
    return guard.resetEverywhere(
        mapping.name(),
        input,
        applicationSet == null || applicationSet.isEmpty() ? null : applicationSet);
  }

  static String mappingTag(CompiledMapping mapping) {
    return "mapping:" + mapping.name();
  }

  static String inputTag(CompiledMapping mapping, String inputKey) {
    return "input:" + mapping.name() + ":" + inputKey;
  }

  public List<Map<String, Object>> execute(CompiledMapping mapping, Invocation invocation)
      throws RequestFailure {
    return execute(mapping, invocation, Trace.NONE);
  }

  /** As {@link #execute(CompiledMapping, Invocation)}, telling {@code trace} what happens. */
  public List<Map<String, Object>> execute(
      CompiledMapping mapping, Invocation invocation, Trace trace) throws RequestFailure {
    return compute(mapping, invocation, trace, System.nanoTime(), false).parameters();
  }

  /**
   * As {@link #execute(CompiledMapping, Invocation, Trace)}, its wire JSON written within the
   * deadline as getparams writes it, never shared: explain's would-be answer is getparams' own.
   */
  public Answer written(CompiledMapping mapping, Invocation invocation, Trace trace)
      throws RequestFailure {
    return compute(mapping, invocation, trace, System.nanoTime(), true);
  }

  private Answer compute(
      CompiledMapping mapping,
      Invocation invocation,
      Trace trace,
      long arrivedNanos,
      boolean written)
      throws RequestFailure {
    Deadline deadline =
        new Deadline(mapping.deadline(), arrivedNanos + mapping.deadline().toNanos());
    CallAccounting books = new CallAccounting(calls.budget(), trace, deadline, redactor);
    // What holes compute from secrets is scrubbed as secrets while this getparams runs (and for
    // the grace period after, for the log line and explain that follow it).
    DerivedSecrets derived = redactor.derived();
    Execution run =
        new Execution(
            mapping,
            trace,
            new RequestRenderer(mapping, trace, derived, books.deadline()),
            new Fetcher(calls, books),
            pool,
            redactor);
    // Expressions count against the same deadline as the calls (see EvaluationBudget), and read
    // one time for the whole answer (#now, #daysSince).
    try (EvaluationBudget.Scope evaluations =
        EvaluationBudget.until(books.deadline().endNanos(), clock.instant())) {
      List<Map<String, Object>> parameters = Stages.run(run, invocation, guard);
      // Written while the deadline holds: its work grows with the answer (a 504, never a late 200).
      byte[] body = written ? AnswerBody.bytes(parameters) : null;
      List<String> stale = books.staleReasons();
      // Nearly always none: no stream for them per getparams.
      return new Answer(
          parameters,
          stale.isEmpty() ? List.of() : stale.stream().map(redactor::redact).toList(),
          false,
          body);
    } catch (RequestFailure e) {
      if (e.kind() == RequestFailure.Kind.DEADLINE
          || (books.deadline().expired() && mayBeTheDeadline(e.kind()))) {
        throw deadline(mapping, books, e);
      }
      throw e.inMapping(mapping.name()).scrubbed(redactor::redact);
    } catch (ExpressionLimitException e) {
      // Raised outside an expression (an input pattern matched as the deadline ran out).
      if (e.deadline() || books.deadline().expired()) {
        throw deadline(mapping, books, e);
      }
      throw RequestFailure.expression(e.getMessage(), e)
          .inMapping(mapping.name())
          .scrubbed(redactor::redact);
    } finally {
      books.release();
      derived.close();
    }
  }

  /** Whether getparams of {@code mapping} may call an upstream (a list or an enrich step). */
  public static boolean makesCalls(CompiledMapping mapping) {
    return mapping.list() != null || !mapping.enrich().isEmpty();
  }

  /**
   * Whether a failure of this kind, once the deadline has run out, is better told as the deadline:
   * a call or an expression cut short fails in its own words, which would hide the cause.
   */
  private static boolean mayBeTheDeadline(RequestFailure.Kind kind) {
    return switch (kind) {
      case INPUT, GUARD, GUARD_UNKNOWN, SECRET -> false;
      case FAILED, CONNECT, TIMEOUT, DEADLINE, LOCAL, OVERLOAD, EXPRESSION -> true;
    };
  }

  private RequestFailure deadline(CompiledMapping mapping, CallAccounting books, Exception cause) {
    return new RequestFailure(
            "deadline "
                + Durations.format(mapping.deadline())
                + " exceeded; slowest call: "
                + books.slowest(),
            RequestFailure.Kind.DEADLINE)
        .causedBy(cause)
        .inMapping(mapping.name())
        .scrubbed(redactor::redact);
  }
}
