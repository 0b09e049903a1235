package io.github.appsetmapper.compile;

import io.github.appsetmapper.config.BodyFormat;
import io.github.appsetmapper.upstream.call.CallSettings;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * An upstream request ready to render, {@code defaults} already merged in. {@code body} is a tree
 * of maps, lists, scalars and {@link Template} leaves, or null. {@code step} names the request in
 * errors ({@code list}, {@code enrich.front}). {@code acceptStatus}: the 2xx statuses besides 200
 * and 203 that are complete answers. {@code settings}: how its calls are made (retries, TLS, the
 * cache policy), as every call of it carries them; its auth is rendered per call from {@code auth}.
 * {@code format}: how its answers are read as the request states it; null when it states none:
 * JSON, except that where an expression or a whole-body enrich reads {@code response.body} a body
 * that is not JSON is its text. A stated {@code json} is JSON wherever the body is read. {@code
 * credentials}: what in it carries credentials ({@code auth}, {@code body}, {@code query.key} ...),
 * null when nothing does: its pages keep to the first page's origin.
 */
public record CompiledRequest(
    String step,
    String method,
    UrlTemplate url,
    Map<String, Template> query,
    Map<String, Template> headers,
    Object body,
    Duration timeout,
    CompiledAuth auth,
    CompiledExpression failWhen,
    Set<Integer> acceptStatus,
    CallSettings settings,
    BodyFormat format,
    String credentials) {
  public static Builder builder() {
    return new Builder();
  }

  /** Sets the components by name, so that two of one type can never be swapped. */
  public static final class Builder {
    private String step;
    private String method;
    private UrlTemplate url;
    private Map<String, Template> query;
    private Map<String, Template> headers;
    private Object body;
    private Duration timeout;
    private CompiledAuth auth;
    private CompiledExpression failWhen;
    private Set<Integer> acceptStatus;
    private CallSettings settings;
    private BodyFormat format;
    private String credentials;

    private Builder() {}

    public Builder step(String value) {
      this.step = value;
      return this;
    }

    public Builder method(String value) {
      this.method = value;
      return this;
    }

    public Builder url(UrlTemplate value) {
      this.url = value;
      return this;
    }

    public Builder query(Map<String, Template> value) {
      this.query = value;
      return this;
    }

    public Builder headers(Map<String, Template> value) {
      this.headers = value;
      return this;
    }

    public Builder body(Object value) {
      this.body = value;
      return this;
    }

    public Builder timeout(Duration value) {
      this.timeout = value;
      return this;
    }

    public Builder auth(CompiledAuth value) {
      this.auth = value;
      return this;
    }

    public Builder failWhen(CompiledExpression value) {
      this.failWhen = value;
      return this;
    }

    public Builder acceptStatus(Set<Integer> value) {
      this.acceptStatus = value;
      return this;
    }

    public Builder settings(CallSettings value) {
      this.settings = value;
      return this;
    }

    public Builder format(BodyFormat value) {
      this.format = value;
      return this;
    }

    /** What in the request carries credentials ("auth", "body" ...), or null: nothing. */
    public Builder credentials(String value) {
      this.credentials = value;
      return this;
    }

    public CompiledRequest build() {
      return new CompiledRequest(
          step,
          method,
          url,
          query,
          headers,
          body,
          timeout,
          auth,
          failWhen,
          acceptStatus,
          settings,
          format,
          credentials);
    }
  }
}
