package io.github.appsetmapper.upstream.call;

import java.time.Instant;

/** Reads a token and its expiry from a successful login answer (JsonPath, in the engine). */
@FunctionalInterface
public interface TokenReader {
  /**
   * @throws IllegalArgumentException with a message naming what is missing (never the body)
   */
  Token read(UpstreamResponse response, Instant now);
}
