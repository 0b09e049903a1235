package io.github.appsetmapper.replay;

import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.Upstream;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import java.util.ArrayList;
import java.util.List;

/**
 * The upstream of one test case: answers from the case's recorded exchanges and remembers which
 * were used, so that the case can fail on a call nothing matches (answered as an unreachable
 * upstream would be), on a call made twice, and on an expected call never made. Each call takes the
 * first unused exchange it matches. Thread-safe: enrich calls arrive from several threads.
 */
public final class RecordingUpstream implements Upstream {
  /** A call no unused recorded exchange matched; {@code repeatOf} is set when a used one did. */
  public record Unexpected(UpstreamRequest request, RecordedExchange repeatOf) {}

  private final List<RecordedExchange> exchanges;
  private final boolean[] used;
  private final List<Unexpected> unexpected = new ArrayList<>();

  public RecordingUpstream(List<RecordedExchange> exchanges) {
    this.exchanges = List.copyOf(exchanges);
    this.used = new boolean[exchanges.size()];
  }

  @Override
  public synchronized UpstreamResponse exchange(UpstreamRequest request) throws RequestFailure {
    RecordedExchange repeat = null;
    for (int i = 0; i < exchanges.size(); i++) {
      RecordedExchange exchange = exchanges.get(i);
      if (!ReplayUpstream.matches(exchange, request)) {
        continue;
      }
      if (!used[i]) {
        used[i] = true;
        return ReplayUpstream.answer(exchange, request);
      }
      if (repeat == null) {
        repeat = exchange;
      }
    }
    unexpected.add(new Unexpected(request, repeat));
    if (repeat != null) {
      return ReplayUpstream.answer(repeat, request);
    }
    throw ReplayUpstream.noMatch(request);
  }

  /** The calls that matched no unused exchange, in the order they were made. */
  public synchronized List<Unexpected> unexpected() {
    return List.copyOf(unexpected);
  }

  /** The positions of the recorded exchanges no call used, optional ones included. */
  public synchronized List<Integer> unusedIndexes() {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < exchanges.size(); i++) {
      if (!used[i]) {
        out.add(i);
      }
    }
    return out;
  }

  /** The recorded exchanges no call used, in file order. */
  public synchronized List<RecordedExchange> unused() {
    List<RecordedExchange> out = new ArrayList<>();
    for (int i = 0; i < exchanges.size(); i++) {
      if (!used[i]) {
        out.add(exchanges.get(i));
      }
    }
    return out;
  }
}
