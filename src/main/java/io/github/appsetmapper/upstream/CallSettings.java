package io.github.appsetmapper.upstream;

import io.github.appsetmapper.upstream.auth.UpstreamAuth;
import io.github.appsetmapper.upstream.tls.TlsSettings;

/**
 * How one call is made beyond its method, URL, headers and body: token-based auth to apply (null:
 * none, or static headers already set), how many retries an idempotent call may take, the TLS
 * settings (null: the JVM's trust store) and the answer's deadline.
 */
public record CallSettings(UpstreamAuth auth, int retries, TlsSettings tls, Deadline deadline) {
  public static final CallSettings PLAIN = new CallSettings(null, 0, null, Deadline.NONE);

  public CallSettings withDeadline(Deadline next) {
    return new CallSettings(auth, retries, tls, next);
  }

  public CallSettings withAuth(UpstreamAuth next) {
    return new CallSettings(next, retries, tls, deadline);
  }

  public CallSettings withRetries(int next) {
    return new CallSettings(auth, next, tls, deadline);
  }
}
