package io.github.appsetmapper.upstream.call;

/** Makes one upstream call: over HTTP in production, from recorded exchanges in a replay. */
public interface Upstream extends AutoCloseable {
  UpstreamResponse exchange(UpstreamRequest request) throws RequestFailure;

  @Override
  default void close() {}
}
