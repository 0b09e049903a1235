package io.github.appsetmapper.upstream;

import io.github.appsetmapper.upstream.auth.UpstreamAuth;
import io.github.appsetmapper.upstream.cache.CachePolicy;
import io.github.appsetmapper.upstream.tls.TlsSettings;

/**
 * How one call is made beyond its method, URL, headers and body: token-based auth to apply (null:
 * none, or static headers already set), how many retries an idempotent call may take, the TLS
 * settings (null: the JVM's trust store), the answer's deadline and the cache policy (null: not
 * cached, only coalesced with identical calls in flight).
 */
public record CallSettings(
    UpstreamAuth auth, int retries, TlsSettings tls, Deadline deadline, CachePolicy cache) {
  public static final CallSettings PLAIN = new CallSettings(null, 0, null, Deadline.NONE, null);

  public CallSettings(UpstreamAuth auth, int retries, TlsSettings tls, Deadline deadline) {
    this(auth, retries, tls, deadline, null);
  }

  public CallSettings withDeadline(Deadline next) {
    return new CallSettings(auth, retries, tls, next, cache);
  }

  public CallSettings withAuth(UpstreamAuth next) {
    return new CallSettings(next, retries, tls, deadline, cache);
  }

  public CallSettings withoutCache() {
    return new CallSettings(auth, retries, tls, deadline, null);
  }

  public CallSettings withRetries(int next) {
    return new CallSettings(auth, next, tls, deadline, cache);
  }
}
