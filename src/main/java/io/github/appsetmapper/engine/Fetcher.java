package io.github.appsetmapper.engine;

import com.jayway.jsonpath.JsonPath;
import com.jayway.jsonpath.PathNotFoundException;
import io.github.appsetmapper.compile.CompiledExpression;
import io.github.appsetmapper.compile.CompiledPaginate;
import io.github.appsetmapper.compile.JsonPaths;
import io.github.appsetmapper.config.PaginateSpec;
import io.github.appsetmapper.expr.Values;
import io.github.appsetmapper.secret.SecretUnavailableException;
import io.github.appsetmapper.upstream.Deadline;
import io.github.appsetmapper.upstream.HostPolicy;
import io.github.appsetmapper.upstream.HttpUpstream;
import io.github.appsetmapper.upstream.PercentEncoding;
import io.github.appsetmapper.upstream.UpstreamException;
import io.github.appsetmapper.upstream.UpstreamRequest;
import io.github.appsetmapper.upstream.UpstreamResponse;
import io.github.appsetmapper.upstream.cache.SharedCalls;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;

/**
 * The upstream calls of one getparams: identical requests made once (rows that share a call share
 * its answer), pages followed in order, {@code failWhen} applied to every successful page, every
 * call stamped with the answer's deadline and timed, so that a deadline error can name the slowest
 * call. Calls go through the server's {@link SharedCalls} (cache and coalescing across getparams);
 * every answer held is counted against the memory budget until {@link #release()}.
 */
final class Fetcher {
  /** Renders the request for one page; {@code page} holds {@code number} and {@code cursor}. */
  @FunctionalInterface
  interface PageSource {
    UpstreamRequest render(Map<String, Object> page)
        throws InputException, UpstreamException, SecretUnavailableException;
  }

  /** How many rows a page holds (page mode stops at a short or empty page). */
  @FunctionalInterface
  interface RowCount {
    int rows(UpstreamResponse page) throws UpstreamException;
  }

  /** The first request as rendered and every page's answer, in order. */
  record Pages(UpstreamRequest first, List<UpstreamResponse> responses) {}

  /** One call, for naming the slowest: when it started and ended (0 while running). */
  private static final class Timing {
    final String what;
    final long started = System.nanoTime();
    volatile long ended;
    volatile boolean cut;

    Timing(String what) {
      this.what = what;
    }

    long nanos(long now) {
      return (ended == 0 ? now : ended) - started;
    }
  }

  private final SharedCalls shared;
  private final Trace trace;
  private final Deadline deadline;
  private final Map<String, CompletableFuture<UpstreamResponse>> calls = new ConcurrentHashMap<>();
  private final List<Timing> timings = Collections.synchronizedList(new ArrayList<>());
  private final List<byte[]> held = Collections.synchronizedList(new ArrayList<>());

  /**
   * Set once the answer is done: a call still finishing then (a cancelled enrich) holds nothing.
   */
  private boolean released;

  private final List<String> stale = Collections.synchronizedList(new ArrayList<>());
  private volatile java.util.Set<String> owners = java.util.Set.of();

  Fetcher(SharedCalls shared, Trace trace, Deadline deadline) {
    this.shared = shared;
    this.trace = trace;
    this.deadline = deadline;
  }

  /** Tags for the cache entries this getparams uses: its mapping, and mapping with input. */
  void owners(java.util.Set<String> tags) {
    this.owners = tags;
  }

  /** Why answers came from the cache in place of a failing upstream (empty: none did). */
  List<String> staleReasons() {
    synchronized (stale) {
      return List.copyOf(stale);
    }
  }

  /** Gives the held answers back to the memory budget; an answer arriving later is not held. */
  void release() {
    synchronized (held) {
      released = true;
      for (byte[] body : held) {
        shared.budget().release(body);
      }
      held.clear();
    }
  }

  Deadline deadline() {
    return deadline;
  }

  /** The number of distinct upstream calls made so far. */
  int calls() {
    return calls.size();
  }

  /** The call that took (or has been taking) longest: "enrich.x GET https://... (1200 ms)". */
  String slowest() {
    long now = System.nanoTime();
    Timing slowest = null;
    synchronized (timings) {
      for (Timing timing : timings) {
        if (slowest == null || timing.nanos(now) > slowest.nanos(now)) {
          slowest = timing;
        }
      }
    }
    if (slowest == null) {
      return "none was made";
    }
    String how =
        slowest.cut
            ? "cut off by the deadline"
            : slowest.ended == 0
                ? "still running"
                : "took " + slowest.nanos(now) / 1_000_000 + " ms";
    return slowest.what + " (" + how + ")";
  }

  UpstreamResponse call(String step, UpstreamRequest rendered, int page) throws UpstreamException {
    UpstreamRequest request = rendered.withSettings(rendered.settings().withDeadline(deadline));
    long started = System.nanoTime();
    CompletableFuture<UpstreamResponse> mine = new CompletableFuture<>();
    CompletableFuture<UpstreamResponse> existing = calls.putIfAbsent(request.identity(), mine);
    if (existing != null) {
      try {
        // Bounded by this answer's deadline: the call shared may belong to a slower row.
        UpstreamResponse answer =
            existing.get(Waits.nanos(deadline), java.util.concurrent.TimeUnit.NANOSECONDS);
        trace.call(
            new UpstreamCall(
                step, request, answer, null, System.nanoTime() - started, page, true, null, null));
        return answer;
      } catch (ExecutionException e) {
        if (e.getCause() instanceof UpstreamException upstreamFailure) {
          throw upstreamFailure;
        }
        throw new UpstreamException(HttpUpstream.describe(request) + ": " + e.getCause());
      } catch (java.util.concurrent.TimeoutException e) {
        throw new UpstreamException(
            HttpUpstream.describe(request) + ": the deadline ran out waiting for the same call",
            UpstreamException.Kind.DEADLINE);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new UpstreamException(HttpUpstream.describe(request) + ": interrupted");
      }
    }
    Timing timing = new Timing(step + " " + HttpUpstream.describe(request));
    timings.add(timing);
    try {
      if (deadline.expired()) {
        throw new UpstreamException(
            HttpUpstream.describe(request) + ": not sent, the deadline ran out",
            UpstreamException.Kind.DEADLINE);
      }
      SharedCalls.Outcome outcome = shared.exchange(request, owners);
      UpstreamResponse response = outcome.response();
      timing.ended = System.nanoTime();
      if (!shared.budget().hold(response.body())) {
        throw new UpstreamException(
            HttpUpstream.describe(request)
                + ": answer of "
                + response.body().length
                + " bytes refused: the memory budget for upstream answers ("
                + shared.budget().total()
                + " bytes) is in use; retry later or raise --memory-budget",
            UpstreamException.Kind.OVERLOAD);
      }
      synchronized (held) {
        if (released) {
          shared.budget().release(response.body());
        } else {
          held.add(response.body());
        }
      }
      if (outcome.source() == SharedCalls.Source.STALE) {
        stale.add(step + " " + outcome.staleBecause());
      }
      mine.complete(response);
      trace.call(
          new UpstreamCall(
              step,
              request,
              response,
              null,
              System.nanoTime() - started,
              page,
              !outcome.source().called(),
              outcome.source(),
              outcome.staleBecause()));
      return response;
    } catch (UpstreamException | RuntimeException e) {
      timing.ended = System.nanoTime();
      timing.cut = e instanceof UpstreamException u && u.kind() == UpstreamException.Kind.DEADLINE;
      mine.completeExceptionally(e);
      trace.call(
          UpstreamCall.failed(step, request, e.getMessage(), System.nanoTime() - started, page));
      throw e;
    }
  }

  /**
   * Every page of a listing, in order. A first page that is not a success is returned alone so that
   * the caller can judge its status (an enrich's 404); a later one is an error.
   */
  Pages pages(
      String step,
      PageSource source,
      CompiledPaginate paginate,
      CompiledExpression failWhen,
      Map<String, Object> scope,
      RowCount rowCount)
      throws UpstreamException, EvaluationException, InputException, SecretUnavailableException {
    UpstreamRequest first = pageRequest(source, paginate, 1, null);
    try {
      return new Pages(
          first, followPages(step, first, source, paginate, failWhen, scope, rowCount));
    } catch (UpstreamException e) {
      throw e.withMessage(step + " " + e.getMessage());
    }
  }

  private List<UpstreamResponse> followPages(
      String step,
      UpstreamRequest first,
      PageSource source,
      CompiledPaginate paginate,
      CompiledExpression failWhen,
      Map<String, Object> scope,
      RowCount rowCount)
      throws UpstreamException, EvaluationException, InputException, SecretUnavailableException {
    if (paginate != null && first.settings().cache() != null) {
      // Pages cached one by one could come from different moments and lose or repeat rows;
      // a paginated listing is fetched whole each time (identical calls in flight still share).
      first = first.withSettings(first.settings().withoutCache());
    }
    List<UpstreamResponse> pages = new ArrayList<>();
    UpstreamRequest current = first;
    String cursor = null;
    while (true) {
      UpstreamResponse response = call(step, current, pages.size() + 1);
      if (!response.isSuccess()) {
        if (pages.isEmpty()) {
          pages.add(response);
          return pages;
        }
        throw new UpstreamException(statusMessage(current, response));
      }
      checkFailWhen(current, response, failWhen, scope);
      pages.add(response);
      if (paginate == null) {
        return pages;
      }
      UpstreamRequest next;
      switch (paginate.mode()) {
        case CURSOR -> {
          String after = cursor(current, response, paginate, scope);
          if (after == null) {
            return pages;
          }
          if (after.equals(cursor)) {
            throw new UpstreamException(
                HttpUpstream.describe(current)
                    + ": the cursor did not change ('"
                    + paginate.cursorFrom().getPath()
                    + "' gave the same value twice)");
          }
          cursor = after;
          next = pageRequest(source, paginate, pages.size() + 1, cursor);
        }
        case PAGE -> {
          int rows = rowCount.rows(response);
          if (rows == 0 || (paginate.size() != null && rows < paginate.size())) {
            return pages;
          }
          next = pageRequest(source, paginate, pages.size() + 1, null);
        }
        default -> {
          URI uri = next(current, response, paginate);
          if (uri == null) {
            return pages;
          }
          if (!HostPolicy.sameOrigin(first.uri(), uri)) {
            if (!(first.hosts().restricts() && first.hosts().allows(uri))) {
              throw new UpstreamException(
                  HttpUpstream.describe(current)
                      + ": next page on another host '"
                      + uri.getHost()
                      + "' refused; list it in allowedHosts to follow it");
            }
            // Like a redirect, a link to another origin (or from https to http) never gets the
            // request's credentials; a listing that needs them there is refused instead.
            if (!first.sensitiveHeaders().isEmpty() || first.settings().auth() != null) {
              throw new UpstreamException(
                  HttpUpstream.describe(current)
                      + ": next page on another origin '"
                      + uri.getScheme()
                      + "://"
                      + uri.getAuthority()
                      + "' refused: the request carries credentials");
            }
          }
          next = current.withUri(uri);
        }
      }
      if (pages.size() >= paginate.maxPages()) {
        if (paginate.stopAtMax()) {
          return pages;
        }
        throw new UpstreamException(
            HttpUpstream.describe(first)
                + ": more than maxPages ("
                + paginate.maxPages()
                + ") pages; raise maxPages or set onMaxPages: stop");
      }
      current = next;
    }
  }

  /** The request for page {@code number}: rendered with {@code page}, its page parameters set. */
  private static UpstreamRequest pageRequest(
      PageSource source, CompiledPaginate paginate, int number, String cursor)
      throws InputException, UpstreamException, SecretUnavailableException {
    Map<String, Object> page = new HashMap<>();
    page.put("number", number);
    page.put("cursor", cursor);
    UpstreamRequest request = source.render(page);
    if (paginate == null) {
      return request;
    }
    URI uri = request.uri();
    if (paginate.mode() == PaginateSpec.Mode.CURSOR && cursor != null && paginate.param() != null) {
      uri = PercentEncoding.withQuery(uri, paginate.param(), cursor);
    }
    if (paginate.mode() == PaginateSpec.Mode.PAGE) {
      if (paginate.param() != null) {
        uri =
            PercentEncoding.withQuery(
                uri, paginate.param(), String.valueOf(paginate.start() + number - 1));
      }
      if (paginate.sizeParam() != null) {
        uri = PercentEncoding.withQuery(uri, paginate.sizeParam(), String.valueOf(paginate.size()));
      }
    }
    return uri == request.uri() ? request : request.withUri(uri);
  }

  /** The next cursor, or null when there is none or {@code until} says stop. */
  private static String cursor(
      UpstreamRequest request,
      UpstreamResponse response,
      CompiledPaginate paginate,
      Map<String, Object> scope)
      throws UpstreamException, EvaluationException {
    if (paginate.until() != null) {
      Map<String, Object> withResponse = new HashMap<>(scope);
      withResponse.remove("secret");
      withResponse.put("response", ResponseBodies.view(response));
      try {
        if (Boolean.TRUE.equals(paginate.until().evaluate(withResponse))) {
          return null;
        }
      } catch (org.springframework.expression.EvaluationException e) {
        throw new EvaluationException(
            paginate.until().path()
                + " '"
                + paginate.until().source().text()
                + "' failed: "
                + io.github.appsetmapper.expr.SpelMessages.simple(e));
      }
    }
    String value = valueAt(request, response, paginate.cursorFrom());
    return value == null || value.isBlank() ? null : value;
  }

  private static URI next(
      UpstreamRequest request, UpstreamResponse response, CompiledPaginate paginate)
      throws UpstreamException {
    String target;
    if (paginate.mode() == PaginateSpec.Mode.LINK_HEADER) {
      target = LinkHeader.find(response.headers().all("Link"), paginate.linkRel());
    } else {
      target = valueAt(request, response, paginate.next());
    }
    if (target == null || target.isBlank()) {
      return null;
    }
    try {
      return request.uri().resolve(target.trim());
    } catch (IllegalArgumentException e) {
      throw new UpstreamException(HttpUpstream.describe(request) + ": invalid next-page URL");
    }
  }

  private static String valueAt(UpstreamRequest request, UpstreamResponse response, JsonPath path)
      throws UpstreamException {
    try {
      Object value = path.read(ResponseBodies.json(response), JsonPaths.CONFIGURATION);
      return value == null ? null : Values.text(value);
    } catch (PathNotFoundException e) {
      return null;
    } catch (IOException e) {
      throw new UpstreamException(HttpUpstream.describe(request) + ": " + e.getMessage());
    }
  }

  private static void checkFailWhen(
      UpstreamRequest request,
      UpstreamResponse response,
      CompiledExpression failWhen,
      Map<String, Object> scope)
      throws UpstreamException, EvaluationException {
    if (failWhen == null) {
      return;
    }
    Map<String, Object> withResponse = new HashMap<>(scope);
    withResponse.remove("secret");
    withResponse.put("response", ResponseBodies.view(response));
    Object verdict;
    try {
      verdict = failWhen.evaluate(withResponse);
    } catch (org.springframework.expression.EvaluationException e) {
      throw new EvaluationException(
          failWhen.path()
              + " '"
              + failWhen.source().text()
              + "' failed: "
              + io.github.appsetmapper.expr.SpelMessages.simple(e));
    }
    if (Boolean.TRUE.equals(verdict)) {
      throw new UpstreamException(
          HttpUpstream.describe(request) + ": failWhen '" + failWhen.source().text() + "' is true");
    }
  }

  /** "answered 500", with the upstream's own short message when it sent one. */
  static String statusMessage(UpstreamRequest request, UpstreamResponse response) {
    String message = HttpUpstream.describe(request) + ": answered " + response.status();
    if (response.attempts() > 1) {
      message += " after " + response.attempts() + " attempts";
    }
    if (response.note() != null) {
      message += " (not retried: " + response.note() + ")";
    }
    Object body = ResponseBodies.lenient(response);
    if (body instanceof Map<?, ?> map) {
      Object said = map.get("message");
      if (said == null) {
        said = map.get("error");
      }
      if (said instanceof String text && !text.isBlank()) {
        String oneLine = text.replaceAll("\\s+", " ").strip();
        message +=
            " (" + (oneLine.length() > 160 ? oneLine.substring(0, 160) + "..." : oneLine) + ")";
      }
    }
    return message;
  }
}
