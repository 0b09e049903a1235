package io.github.appsetmapper.replay;

import io.github.appsetmapper.upstream.call.Headers;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.Upstream;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Answers upstream calls from recorded exchanges instead of the network ({@code serve --replay},
 * {@code run --replay}): offline demos and mapping tests. A call nothing matches is an upstream
 * error, as an unreachable host would be.
 */
public final class ReplayUpstream implements Upstream {
  private final List<RecordedExchange> exchanges;

  public ReplayUpstream(List<RecordedExchange> exchanges) {
    this.exchanges = List.copyOf(exchanges);
  }

  @Override
  public UpstreamResponse exchange(UpstreamRequest request) throws RequestFailure {
    for (RecordedExchange exchange : exchanges) {
      if (matches(exchange, request)) {
        return answer(exchange, request);
      }
    }
    throw noMatch(request);
  }

  static boolean matches(RecordedExchange exchange, UpstreamRequest request) {
    return ExchangeMatcher.matches(
        exchange, request.method(), request.uri().toString(), request.headers(), request.body());
  }

  /** The recorded answer, as the upstream would have given it to {@code request}. */
  static UpstreamResponse answer(RecordedExchange exchange, UpstreamRequest request) {
    List<Headers.Header> headers = new ArrayList<>();
    for (Map.Entry<String, String> h : exchange.responseHeaders().entrySet()) {
      headers.add(new Headers.Header(h.getKey(), h.getValue()));
    }
    return new UpstreamResponse(
        exchange.status(), Headers.of(headers), exchange.responseBody(), request.uri());
  }

  static RequestFailure noMatch(UpstreamRequest request) {
    return RequestFailure.of(request, "no recorded exchange matches");
  }
}
