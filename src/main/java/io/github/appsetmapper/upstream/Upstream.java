package io.github.appsetmapper.upstream;

/** Makes one upstream call: over HTTP in production, from recorded exchanges in a replay. */
public interface Upstream extends AutoCloseable {
  UpstreamResponse exchange(UpstreamRequest request) throws UpstreamException;

  @Override
  default void close() {}
}
