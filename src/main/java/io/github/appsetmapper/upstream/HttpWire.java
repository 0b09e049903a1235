package io.github.appsetmapper.upstream;

import io.github.appsetmapper.upstream.net.GuardedDnsResolver;
import io.github.appsetmapper.upstream.net.ProxyRoutePlanner;
import io.github.appsetmapper.upstream.net.ProxySettings;
import io.github.appsetmapper.upstream.tls.RoutingTlsStrategy;
import java.io.IOException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.auth.AuthScope;
import org.apache.hc.client5.http.auth.UsernamePasswordCredentials;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.auth.BasicCredentialsProvider;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * What {@link HttpUpstream} calls through: the pooled client, its connection manager and the timer
 * that cancels a call at its deadline. Made on the first call or when {@code serve} prepares it on
 * a thread of its own ({@link HttpUpstream#prepare}): HttpClient is about 300 classes, which the
 * first answer of a mapping without calls does not need (issue 25).
 */
final class HttpWire {
  /** The context attribute saying the answer's body had neither a length nor chunks. */
  static final String ENDED_BY_CLOSE = "appset-mapper.ended-by-close";

  final CloseableHttpClient client;
  final ScheduledThreadPoolExecutor timer;
  private final PoolingHttpClientConnectionManager connections;
  private final ScheduledFuture<?> tick;

  HttpWire(UpstreamOptions options) {
    ProxySettings proxies = options.proxies();
    this.connections =
        PoolingHttpClientConnectionManagerBuilder.create()
            .setMaxConnTotal(options.maxConnections())
            .setMaxConnPerRoute(options.maxConnections())
            .setDnsResolver(
                new GuardedDnsResolver(
                    options.dnsResolver(), options.addresses(), proxies.proxyHosts()))
            .setTlsSocketStrategy(new RoutingTlsStrategy())
            .setDefaultConnectionConfig(
                ConnectionConfig.custom()
                    .setConnectTimeout(Timeout.ofSeconds(10))
                    .setValidateAfterInactivity(TimeValue.ofSeconds(2))
                    .setTimeToLive(TimeValue.ofMinutes(5))
                    .build())
            .build();
    BasicCredentialsProvider proxyCredentials = new BasicCredentialsProvider();
    for (ProxySettings.Proxy proxy : new ProxySettings.Proxy[] {proxies.http(), proxies.https()}) {
      if (proxy != null && proxy.username() != null) {
        proxyCredentials.setCredentials(
            new AuthScope(proxy.host()),
            new UsernamePasswordCredentials(proxy.username(), proxy.password().toCharArray()));
      }
    }
    this.client =
        HttpClients.custom()
            .setConnectionManager(connections)
            .setRoutePlanner(new ProxyRoutePlanner(proxies))
            .setDefaultCredentialsProvider(proxyCredentials)
            .disableRedirectHandling()
            .disableAutomaticRetries()
            .disableCookieManagement()
            .disableAuthCaching()
            .setUserAgent("appset-mapper")
            // Before decompression, which drops the framing headers: how the body ends.
            .addResponseInterceptorFirst(
                (response, entity, context) ->
                    context.setAttribute(
                        ENDED_BY_CLOSE,
                        entity != null && entity.getContentLength() < 0 && !entity.isChunked()))
            .evictIdleConnections(TimeValue.ofSeconds(30))
            .build();
    this.timer =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread thread = new Thread(r, "upstream-timeouts");
              thread.setDaemon(true);
              return thread;
            });
    // Nearly every call ends before its timeout: without this each cancelled task stays queued
    // (and wakes the timer thread) until its delay runs out, thousands of them under load.
    timer.setRemoveOnCancelPolicy(true);
    // A task due within a second always heads the queue, so a call's timeout (seconds long) is
    // queued behind it and scheduling it wakes nobody; without it, a call made while no other was
    // in flight woke the timer thread (one more thread hand-off per call). Shorter timeouts still
    // head the queue and wake the thread as they must.
    this.tick = timer.scheduleAtFixedRate(() -> {}, 1, 1, TimeUnit.SECONDS);
  }

  /** Timeout tasks queued: one per call in flight. */
  int pendingTimeouts() {
    int pending = 0;
    for (Runnable task : timer.getQueue()) {
      pending += task == tick ? 0 : 1;
    }
    return pending;
  }

  void close() {
    timer.shutdownNow();
    try {
      client.close();
    } catch (IOException ignored) {
      // closing sockets on shutdown; nothing to do about a failure here
    }
    connections.close();
  }
}
