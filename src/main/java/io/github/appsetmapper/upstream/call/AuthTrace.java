package io.github.appsetmapper.upstream.call;

/**
 * Told of the calls auth makes for a call (a token or login request, a registry's challenge and its
 * token request), so that explain shows them beside the call they were for. {@code response} is
 * null when the call failed with {@code error}; {@code nanos} is how long it took.
 */
@FunctionalInterface
public interface AuthTrace {
  AuthTrace NONE = (what, request, response, error, startedAt, nanos) -> {};

  void call(
      String what,
      UpstreamRequest request,
      UpstreamResponse response,
      String error,
      long startedAt,
      long nanos);
}
