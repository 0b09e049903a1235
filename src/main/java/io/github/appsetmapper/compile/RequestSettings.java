package io.github.appsetmapper.compile;

import io.github.appsetmapper.config.BodyFormat;
import io.github.appsetmapper.config.CacheSpec;
import io.github.appsetmapper.config.RequestOptions;
import io.github.appsetmapper.config.TlsSpec;
import io.github.appsetmapper.json.YamlCodec;
import io.github.appsetmapper.upstream.call.CachePolicy;
import io.github.appsetmapper.upstream.call.CallSettings;
import io.github.appsetmapper.upstream.call.TlsSettings;
import java.nio.file.Path;

/** A request's merged options as the {@link CallSettings} its calls are made with. */
final class RequestSettings {
  private RequestSettings() {}

  /**
   * How the calls of a request are made ({@link CallSettings}), from its merged options: auth is
   * rendered per call and the deadline stamped per getparams, so neither is set here.
   */
  static CallSettings of(RequestOptions options, BodyFormat format) {
    TlsSpec tls = options.tls();
    CacheSpec cache = options.cache();
    return CallSettings.PLAIN.toBuilder()
        .retries(options.retries())
        .tls(
            tls == null
                ? null
                : new TlsSettings(
                    path(tls.caFile()),
                    path(tls.certFile()),
                    path(tls.keyFile()),
                    tls.insecureSkipVerify()))
        .cache(cache == null ? null : new CachePolicy(cache.ttl(), cache.staleIfError()))
        .maxBodyBytes(format == BodyFormat.YAML ? YamlCodec.MAX_BYTES : 0)
        .build();
  }

  static Path path(String file) {
    return file == null ? null : Path.of(file);
  }
}
