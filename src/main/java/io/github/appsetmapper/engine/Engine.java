package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledEnrich;
import io.github.appsetmapper.compile.CompiledExpression;
import io.github.appsetmapper.compile.CompiledList;
import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.compile.CompiledRequest;
import io.github.appsetmapper.config.Durations;
import io.github.appsetmapper.expr.EvaluationBudget;
import io.github.appsetmapper.expr.Values;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.secret.SecretUnavailableException;
import io.github.appsetmapper.upstream.Deadline;
import io.github.appsetmapper.upstream.RetryingUpstream;
import io.github.appsetmapper.upstream.Upstream;
import io.github.appsetmapper.upstream.UpstreamException;
import io.github.appsetmapper.upstream.UpstreamRequest;
import io.github.appsetmapper.upstream.auth.AuthorizingUpstream;
import io.github.appsetmapper.upstream.cache.MemoryBudget;
import io.github.appsetmapper.upstream.cache.SharedCalls;
import io.github.appsetmapper.upstream.cache.SharedLevel;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
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

  /**
   * What replicas share (the listing cache and coalescing, the {@code maxDrop} baselines); {@link
   * #ALONE} for a replica on its own.
   */
  public record Sharing(SharedLevel listings, BaselineStore baselines) {
    public static final Sharing ALONE = new Sharing(SharedLevel.NONE, BaselineStore.NONE);
  }

  /**
   * @param upstream the calls' transport (HTTP, or recorded exchanges); the engine adds retries and
   *     token-based auth on top of it
   */
  public Engine(Upstream upstream, ExecutorService pool, Redactor redactor) {
    this(upstream, pool, redactor, Clock.systemUTC());
  }

  /** With the clock that decides when cached tokens expire (tests). */
  public Engine(Upstream upstream, ExecutorService pool, Redactor redactor, Clock clock) {
    this(upstream, pool, redactor, clock, new MemoryBudget(MemoryBudget.DEFAULT_BYTES));
  }

  /** With the memory budget for upstream answers in flight and in the cache. */
  public Engine(
      Upstream upstream,
      ExecutorService pool,
      Redactor redactor,
      Clock clock,
      MemoryBudget budget) {
    this(upstream, pool, redactor, clock, budget, Sharing.ALONE);
  }

  /** With what replicas share ({@code serve --redis}). */
  public Engine(
      Upstream upstream,
      ExecutorService pool,
      Redactor redactor,
      Clock clock,
      MemoryBudget budget,
      Sharing sharing) {
    this.calls =
        new SharedCalls(
            new AuthorizingUpstream(new RetryingUpstream(upstream), redactor, clock),
            budget,
            sharing.listings());
    this.guard = new DropGuard(sharing.baselines());
    this.shared = sharing != Sharing.ALONE;
    this.pool = pool;
    this.redactor = redactor;
  }

  /** Whether replicas share the cache and baselines (they may still be unreachable now). */
  public boolean shared() {
    return shared;
  }

  public Redactor redactor() {
    return redactor;
  }

  /** The upstream calls shared by every getparams: the cache, coalescing, the memory budget. */
  public SharedCalls calls() {
    return calls;
  }

  /** The {@code maxDrop} baselines (kept across mapping reloads). */
  public DropGuard guard() {
    return guard;
  }

  /**
   * One getparams answer for the server: identical getparams in flight (same compiled mapping,
   * input and ApplicationSet) are computed once and the answer shared.
   */
  public Answer answer(CompiledMapping mapping, Invocation invocation, Trace trace)
      throws InputException, UpstreamException, EvaluationException, GuardException {
    return answers.compute(mapping, invocation, () -> compute(mapping, invocation, trace));
  }

  /**
   * Marks the cached upstream answers {@code mapping} used as expired: all of them, or those of one
   * input when {@code parameters} is non-null.
   *
   * @return how many of this replica's cache entries were marked, and whether every replica sees it
   */
  public SharedCalls.Invalidated invalidate(CompiledMapping mapping, Map<String, Object> parameters)
      throws InputException {
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
      throws InputException {
    String input =
        parameters == null ? null : InputKeys.of(InputValidator.validate(mapping, parameters));
    return guard.resetEverywhere(
        mapping.name(),
        input,
        applicationSet == null || applicationSet.isEmpty() ? null : applicationSet);
  }

  private static String mappingTag(CompiledMapping mapping) {
    return "mapping:" + mapping.name();
  }

  private static String inputTag(CompiledMapping mapping, String inputKey) {
    return "input:" + mapping.name() + ":" + inputKey;
  }

  public List<Map<String, Object>> execute(CompiledMapping mapping, Invocation invocation)
      throws InputException, UpstreamException, EvaluationException, GuardException {
    return execute(mapping, invocation, Trace.NONE);
  }

  /** As {@link #execute(CompiledMapping, Invocation)}, telling {@code trace} what happens. */
  public List<Map<String, Object>> execute(
      CompiledMapping mapping, Invocation invocation, Trace trace)
      throws InputException, UpstreamException, EvaluationException, GuardException {
    return compute(mapping, invocation, trace).parameters();
  }

  private Answer compute(CompiledMapping mapping, Invocation invocation, Trace trace)
      throws InputException, UpstreamException, EvaluationException, GuardException {
    String prefix = "mapping '" + mapping.name() + "': ";
    Fetcher fetcher = new Fetcher(calls, trace, Deadline.after(mapping.deadline()), redactor);
    // Expressions count against the same deadline as the calls (see EvaluationBudget).
    try (EvaluationBudget.Scope evaluations =
        EvaluationBudget.until(fetcher.deadline().endNanos())) {
      List<Map<String, Object>> parameters = run(mapping, invocation, trace, fetcher);
      return new Answer(
          parameters, fetcher.staleReasons().stream().map(redactor::redact).toList(), false);
    } catch (UpstreamException e) {
      if (e.kind() == UpstreamException.Kind.DEADLINE || fetcher.deadline().expired()) {
        throw deadline(mapping, fetcher);
      }
      throw e.withMessage(redactor.redact(prefix + e.getMessage()));
    } catch (InputException e) {
      throw new InputException(redactor.redact(e.getMessage()));
    } catch (EvaluationException e) {
      if (fetcher.deadline().expired()) {
        throw deadline(mapping, fetcher);
      }
      throw new EvaluationException(redactor.redact(prefix + e.getMessage()));
    } catch (GuardException e) {
      throw new GuardException(redactor.redact(prefix + e.getMessage()));
    } catch (SecretUnavailableException e) {
      throw new EvaluationException(redactor.redact(prefix + e.getMessage()));
    } catch (io.github.appsetmapper.expr.ExpressionLimitException e) {
      // Raised outside an expression (an input pattern matched as the deadline ran out).
      if (e.deadline() || fetcher.deadline().expired()) {
        throw deadline(mapping, fetcher);
      }
      throw new EvaluationException(redactor.redact(prefix + e.getMessage()));
    } finally {
      fetcher.release();
    }
  }

  private UpstreamException deadline(CompiledMapping mapping, Fetcher fetcher) {
    return new UpstreamException(
        redactor.redact(
            "mapping '"
                + mapping.name()
                + "': deadline "
                + Durations.format(mapping.deadline())
                + " exceeded; slowest call: "
                + fetcher.slowest()),
        UpstreamException.Kind.DEADLINE);
  }

  private List<Map<String, Object>> run(
      CompiledMapping mapping, Invocation invocation, Trace trace, Fetcher fetcher)
      throws InputException,
          UpstreamException,
          EvaluationException,
          GuardException,
          SecretUnavailableException {
    Map<String, Object> input = InputValidator.validate(mapping, invocation.parameters());
    String inputKey = InputKeys.of(input);
    fetcher.owners(java.util.Set.of(mappingTag(mapping), inputTag(mapping, inputKey)));
    Map<String, Object> base = new HashMap<>();
    base.put("input", input);
    base.put("applicationSetName", invocation.applicationSetName());
    base.put("vars", mapping.vars());
    List<Row> rows =
        mapping.list() == null
            ? List.of(new Row(0, Map.of(), Map.of()))
            : list(mapping, mapping.list(), base, fetcher, trace);
    trace.stage("list", rows.size());
    EnrichStage stage = new EnrichStage(mapping, fetcher, pool, trace);
    for (CompiledEnrich enrich : mapping.enrich()) {
      rows = stage.run(enrich, rows, base);
      trace.stage("enrich." + enrich.name(), rows.size());
    }
    rows = RowOrdering.apply(mapping, rows, base, trace);
    List<Map<String, Object>> answer = new ArrayList<>(rows.size());
    long unheld = 0;
    for (Row row : rows) {
      Map<String, Object> parameters = parameters(mapping, row, base);
      trace.parameters(row.index(), parameters);
      answer.add(parameters);
      // Counted in batches: one budget call per 256 KiB of answer, not per row.
      unheld += io.github.appsetmapper.json.JsonCodec.estimate(parameters);
      if (unheld > 256 * 1024) {
        fetcher.holdAnswer(answer.size(), unheld);
        unheld = 0;
      }
    }
    fetcher.holdAnswer(answer.size(), unheld);
    if (answer.size() < mapping.minItems()) {
      throw new GuardException(
          "the answer has "
              + answer.size()
              + " rows, fewer than minItems ("
              + mapping.minItems()
              + "); refused so that Argo CD keeps its Applications");
    }
    guard.check(
        mapping.name(),
        mapping.maxDrop(),
        inputKey,
        invocation.applicationSetName(),
        answer.size());
    return answer;
  }

  private static List<Row> list(
      CompiledMapping mapping,
      CompiledList list,
      Map<String, Object> base,
      Fetcher fetcher,
      Trace trace)
      throws UpstreamException, EvaluationException, InputException, SecretUnavailableException {
    Map<String, Object> scope = requestScope(mapping, base);
    ResponseChecks checks = ResponseChecks.of(list.request(), false, scope, fetcher.redactor());
    List<Page> pages =
        fetcher.listing(
            "list",
            () ->
                Paginator.of(
                    list.paginate(),
                    (number, cursor) ->
                        render(mapping, list.request(), withPage(scope, number, cursor), trace),
                    scope,
                    page -> page.rows(list.items(), "items").size()),
            checks);
    Page first = pages.get(0);
    if (!checks.complete(first.status())) {
      if (first.response().isSuccess()) {
        first.refusedBy("incomplete-status");
      }
      throw new UpstreamException("list " + checks.incomplete(first.request(), first.response()));
    }
    List<Row> rows = new ArrayList<>();
    for (Page page : pages) {
      List<Object> items;
      try {
        items = page.rows(list.items(), "items");
      } catch (UpstreamException e) {
        throw e.withMessage("list " + e.getMessage());
      }
      fetcher.holdRows("list " + page.describe(), items.size());
      for (Object item : items) {
        rows.add(new Row(rows.size(), item, Map.of()));
      }
    }
    return rows;
  }

  static Map<String, Object> requestScope(CompiledMapping mapping, Map<String, Object> scope) {
    Map<String, Object> out = new HashMap<>(scope);
    out.put("secret", new SecretsView(mapping.secrets()));
    Map<String, Object> page = new HashMap<>();
    page.put("number", 1);
    page.put("cursor", null);
    out.put("page", page);
    return out;
  }

  /** {@code scope} with {@code page}: {@code number} (1 for the first) and {@code cursor}. */
  static Map<String, Object> withPage(Map<String, Object> scope, int number, String cursor) {
    Map<String, Object> page = new HashMap<>();
    page.put("number", number);
    page.put("cursor", cursor);
    Map<String, Object> out = new HashMap<>(scope);
    out.put("page", page);
    return out;
  }

  static Map<String, Object> rowScope(Map<String, Object> base, Row row) {
    Map<String, Object> scope = new HashMap<>(base);
    scope.putAll(row.values());
    scope.put("item", row.item());
    return scope;
  }

  static UpstreamRequest render(
      CompiledMapping mapping, CompiledRequest request, Map<String, Object> scope, Trace trace)
      throws InputException, UpstreamException, SecretUnavailableException {
    try {
      return RequestRenderer.render(mapping, request, scope);
    } catch (TemplateException e) {
      if (e.refusal() != null) {
        trace.refusedRequest(e.refusal());
      }
      if (e.fromInput()) {
        throw new InputException(e.getMessage());
      }
      throw new UpstreamException(e.getMessage());
    } catch (SecretsView.Unavailable e) {
      throw e.cause;
    }
  }

  private static Map<String, Object> parameters(
      CompiledMapping mapping, Row row, Map<String, Object> base) throws EvaluationException {
    Map<String, Object> scope = rowScope(base, row);
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<String, CompiledExpression> parameter : mapping.parameters().entrySet()) {
      Object value = evaluate(parameter.getValue(), scope, row);
      out.put(parameter.getKey(), Values.parameter(value, mapping.keepTypes()));
    }
    return Collections.unmodifiableMap(out);
  }

  static Object evaluate(CompiledExpression expression, Map<String, Object> scope, Row row)
      throws EvaluationException {
    try {
      return expression.evaluate(scope);
    } catch (org.springframework.expression.EvaluationException
        | IllegalArgumentException
        | ArithmeticException e) {
      // ArithmeticException: a decimal divided by zero.
      throw new EvaluationException(
          expression.path()
              + " '"
              + expression.source().text()
              + "' failed on row "
              + row.index()
              + ": "
              + RequestRenderer.simple(e));
    }
  }
}
