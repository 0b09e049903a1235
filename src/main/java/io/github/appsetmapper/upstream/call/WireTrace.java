package io.github.appsetmapper.upstream.call;

import java.util.function.BiConsumer;

/**
 * Distributed tracing of the calls that go on the wire: told when a call (its retries and redirects
 * included) is about to be sent and when it ended, and asked for the headers that carry the trace
 * to the upstream ({@code traceparent}, {@code tracestate}). {@link #NONE} when tracing is off:
 * then nothing is allocated or sent.
 */
public interface WireTrace {
  WireTrace NONE = new WireTrace() {};

  /** A call about to be sent; end what this returns once it answered or failed. */
  default Sending sending(UpstreamRequest request) {
    return Sending.NONE;
  }

  /** The calls auth makes for a call ({@code token}, {@code login}): traced as such. */
  default WireTrace forAuth(String purpose) {
    return this;
  }

  /** Adds the headers that carry the trace to the upstream; none unless a call is being sent. */
  default void propagate(BiConsumer<String, String> header) {}

  /** One call being sent: its headers carry it, and it is told how it ended. */
  interface Sending extends WireTrace {
    Sending NONE = new Sending() {};

    /**
     * The call ended: {@code response} (null when it failed with {@code failure}) after {@code
     * attempts} attempts.
     */
    default void ended(UpstreamResponse response, int attempts, RequestFailure failure) {}
  }
}
