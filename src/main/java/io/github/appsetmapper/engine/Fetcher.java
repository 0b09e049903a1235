package io.github.appsetmapper.engine;

import com.jayway.jsonpath.JsonPath;
import com.jayway.jsonpath.PathNotFoundException;
import io.github.appsetmapper.compile.CompiledExpression;
import io.github.appsetmapper.compile.CompiledPaginate;
import io.github.appsetmapper.compile.JsonPaths;
import io.github.appsetmapper.config.PaginateSpec;
import io.github.appsetmapper.upstream.HostPolicy;
import io.github.appsetmapper.upstream.HttpUpstream;
import io.github.appsetmapper.upstream.Upstream;
import io.github.appsetmapper.upstream.UpstreamException;
import io.github.appsetmapper.upstream.UpstreamRequest;
import io.github.appsetmapper.upstream.UpstreamResponse;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;

/**
 * The upstream calls of one getparams: identical requests made once (rows that share a call share
 * its answer), pages followed in order, {@code failWhen} applied to every successful page.
 */
final class Fetcher {
  private final Upstream upstream;
  private final Trace trace;
  private final Map<String, CompletableFuture<UpstreamResponse>> calls = new ConcurrentHashMap<>();

  Fetcher(Upstream upstream, Trace trace) {
    this.upstream = upstream;
    this.trace = trace;
  }

  /** The number of distinct upstream calls made so far. */
  int calls() {
    return calls.size();
  }

  UpstreamResponse call(String step, UpstreamRequest request, int page) throws UpstreamException {
    long started = System.nanoTime();
    CompletableFuture<UpstreamResponse> mine = new CompletableFuture<>();
    CompletableFuture<UpstreamResponse> existing = calls.putIfAbsent(request.identity(), mine);
    if (existing != null) {
      try {
        UpstreamResponse shared = existing.get();
        trace.call(step, request, shared, null, System.nanoTime() - started, page, true);
        return shared;
      } catch (ExecutionException e) {
        if (e.getCause() instanceof UpstreamException upstreamFailure) {
          throw upstreamFailure;
        }
        throw new UpstreamException(HttpUpstream.describe(request) + ": " + e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new UpstreamException(HttpUpstream.describe(request) + ": interrupted");
      }
    }
    try {
      UpstreamResponse response = upstream.exchange(request);
      mine.complete(response);
      trace.call(step, request, response, null, System.nanoTime() - started, page, false);
      return response;
    } catch (UpstreamException | RuntimeException e) {
      mine.completeExceptionally(e);
      trace.call(step, request, null, e.getMessage(), System.nanoTime() - started, page, false);
      throw e;
    }
  }

  /**
   * Every page of a listing, in order. A first page that is not a success is returned alone so that
   * the caller can judge its status (an enrich's 404); a later one is an error.
   */
  List<UpstreamResponse> pages(
      String step,
      UpstreamRequest first,
      CompiledPaginate paginate,
      CompiledExpression failWhen,
      Map<String, Object> scope)
      throws UpstreamException, EvaluationException {
    try {
      return followPages(step, first, paginate, failWhen, scope);
    } catch (UpstreamException e) {
      throw new UpstreamException(step + " " + e.getMessage(), e.isTimeout());
    }
  }

  private List<UpstreamResponse> followPages(
      String step,
      UpstreamRequest first,
      CompiledPaginate paginate,
      CompiledExpression failWhen,
      Map<String, Object> scope)
      throws UpstreamException, EvaluationException {
    List<UpstreamResponse> pages = new ArrayList<>();
    UpstreamRequest current = first;
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
      URI next = next(current, response, paginate);
      if (next == null) {
        return pages;
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
      if (!HostPolicy.sameOrigin(first.uri(), next)
          && !(first.hosts().restricts() && first.hosts().allows(next))) {
        throw new UpstreamException(
            HttpUpstream.describe(current)
                + ": next page on another host '"
                + next.getHost()
                + "' refused; list it in allowedHosts to follow it");
      }
      current = current.withUri(next);
    }
  }

  private static URI next(
      UpstreamRequest request, UpstreamResponse response, CompiledPaginate paginate)
      throws UpstreamException {
    String target;
    if (paginate.mode() == PaginateSpec.Mode.LINK_HEADER) {
      target = LinkHeader.find(response.headers().all("Link"), paginate.linkRel());
    } else {
      target = nextFromBody(request, response, paginate.next());
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

  private static String nextFromBody(
      UpstreamRequest request, UpstreamResponse response, JsonPath path) throws UpstreamException {
    try {
      Object value = path.read(ResponseBodies.json(response), JsonPaths.CONFIGURATION);
      return value == null ? null : value.toString();
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
