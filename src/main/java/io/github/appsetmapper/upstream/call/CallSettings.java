package io.github.appsetmapper.upstream.call;

/**
 * How one call is made beyond its method, URL, headers and body: token-based auth to apply (null:
 * none, or static headers already set), how many retries an idempotent call may take, the TLS
 * settings (null: the JVM's trust store), the answer's deadline and the cache policy (null: not
 * cached, only coalesced with identical calls in flight). The compiler sets what a request's
 * options say; auth and the deadline are added per call. {@code maxBodyBytes} raises the
 * transport's response cap for this call (0: the transport's own), for a format read as a stream (a
 * Helm index as YAML is larger than any JSON listing).
 */
public record CallSettings(
    UpstreamAuth auth,
    int retries,
    TlsSettings tls,
    Deadline deadline,
    CachePolicy cache,
    AuthTrace authTrace,
    long maxBodyBytes,
    WireTrace wire) {
  public static final CallSettings PLAIN =
      new CallSettings(null, 0, null, Deadline.NONE, null, AuthTrace.NONE, 0, WireTrace.NONE);

  /**
   * What the token calls made for this call's auth keep of it: its TLS settings (the token endpoint
   * is reached as the API is) and its deadline; nothing else (their own retries, no cache). {@code
   * config.RequestOptionTable} says the same of each option, and OptionPlumbingTest checks the two
   * agree.
   */
  public CallSettings forTokenCall() {
    return PLAIN.toBuilder().tls(tls).deadline(deadline).build();
  }

  /**
   * What of these settings keys a cached answer ({@code upstream.cache.CacheKey}): the response cap
   * (a call under the YAML cap must not answer one under JSON's) and the TLS settings (a client
   * certificate is a credential too). {@code config.RequestOptionTable} says which options are part
   * of it, and OptionPlumbingTest checks the two agree.
   */
  public String cacheKeyText() {
    String text = maxBodyBytes > 0 ? "\n\nmaxBody:" + maxBodyBytes : "";
    return tls == null ? text : text + "\n\ntls:" + tls;
  }

  public CallSettings withDeadline(Deadline next) {
    return toBuilder().deadline(next).build();
  }

  public CallSettings withAuth(UpstreamAuth next) {
    return toBuilder().auth(next).build();
  }

  public CallSettings withWire(WireTrace next) {
    return toBuilder().wire(next).build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this one's values, to change some of them. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.auth = auth;
    b.retries = retries;
    b.tls = tls;
    b.deadline = deadline;
    b.cache = cache;
    b.authTrace = authTrace;
    b.maxBodyBytes = maxBodyBytes;
    b.wire = wire;
    return b;
  }

  /** Sets the components by name, so that two of one type can never be swapped. */
  public static final class Builder {
    private UpstreamAuth auth;
    private int retries;
    private TlsSettings tls;
    private Deadline deadline;
    private CachePolicy cache;
    private AuthTrace authTrace = AuthTrace.NONE;
    private long maxBodyBytes;
    private WireTrace wire = WireTrace.NONE;

    private Builder() {}

    /** Who traces the call on the wire (distributed tracing); default: nobody. */
    public Builder wire(WireTrace value) {
      this.wire = value;
      return this;
    }

    /** The response cap for this call, when above the transport's (0: the transport's). */
    public Builder maxBodyBytes(long value) {
      this.maxBodyBytes = value;
      return this;
    }

    /** Who is told of the calls auth makes for this call (explain); default: nobody. */
    public Builder authTrace(AuthTrace value) {
      this.authTrace = value;
      return this;
    }

    public Builder auth(UpstreamAuth value) {
      this.auth = value;
      return this;
    }

    public Builder retries(int value) {
      this.retries = value;
      return this;
    }

    public Builder tls(TlsSettings value) {
      this.tls = value;
      return this;
    }

    public Builder deadline(Deadline value) {
      this.deadline = value;
      return this;
    }

    public Builder cache(CachePolicy value) {
      this.cache = value;
      return this;
    }

    public CallSettings build() {
      return new CallSettings(auth, retries, tls, deadline, cache, authTrace, maxBodyBytes, wire);
    }
  }
}
