package io.github.appsetmapper.shadow;

import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.Upstream;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The front of the candidates' upstream stack (above auth, so a shared answer needs no token): a
 * call identical to one the live getparams made is answered with the live answer; any other call
 * goes on to the upstream unless the host's rate-limit headroom is low, and then it is refused, so
 * a candidate never eats into the live mappings' allowance.
 */
public final class LiveAnswers {
  /** The answers of live calls whose candidates are running now. */
  private final List<Map<String, UpstreamResponse>> running = new CopyOnWriteArrayList<>();

  private final Headroom headroom;
  private final AtomicLong shared = new AtomicLong();
  private final AtomicLong made = new AtomicLong();

  /**
   * @param states what each host's rate-limit headers last said (the live transport's)
   * @param minHeadroomPercent below this share of its limit left, a host gets no candidate call
   */
  public LiveAnswers(
      java.util.function.Supplier<
              Map<String, io.github.appsetmapper.upstream.limits.RateLimitState>>
          states,
      int minHeadroomPercent) {
    this.headroom = new Headroom(states, minHeadroomPercent);
  }

  Headroom headroom() {
    return headroom;
  }

  /** Lends a live call's answers while its candidate runs; {@link #end} gives them back. */
  void begin(Map<String, UpstreamResponse> answers) {
    running.add(answers);
  }

  void end(Map<String, UpstreamResponse> answers) {
    running.remove(answers);
  }

  /** Calls answered from a live call's answer, since start. */
  long shared() {
    return shared.get();
  }

  /** Calls candidates made to the upstream themselves, since start. */
  long made() {
    return made.get();
  }

  /** The candidates' stack under this front ({@code Engine.Builder.front}). */
  public Upstream around(Upstream next) {
    return new Upstream() {
      @Override
      public UpstreamResponse exchange(UpstreamRequest request) throws RequestFailure {
        if (!running.isEmpty()) {
          String key = CallKey.of(request);
          for (Map<String, UpstreamResponse> answers : running) {
            UpstreamResponse answer = answers.get(key);
            if (answer != null) {
              shared.incrementAndGet();
              return answer;
            }
          }
        }
        String host = request.uri().getHost();
        if (host != null && headroom.lowOn(List.of(host)) != null) {
          throw RequestFailure.of(
              request, LOW_HEADROOM + " on " + host, RequestFailure.Kind.OVERLOAD);
        }
        made.incrementAndGet();
        return next.exchange(request);
      }

      @Override
      public void close() {
        next.close();
      }
    };
  }

  /** Said by a call refused for headroom: the run is then skipped, not a difference. */
  static final String LOW_HEADROOM = "shadow: rate-limit headroom low";
}
