package io.github.appsetmapper.bench;

import io.undertow.Undertow;
import io.undertow.util.Headers;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The ceiling for the static benchmark: Undertow answering the exact bytes appset-mapper answers,
 * without reading the request, checking a token or evaluating anything. Same thread counts. Usage:
 * BareUndertow PORT BODY
 */
public final class BareUndertow {
  private BareUndertow() {}

  public static void main(String[] args) {
    ByteBuffer body = ByteBuffer.wrap(args[1].getBytes(StandardCharsets.UTF_8));
    Undertow.builder()
        .addHttpListener(Integer.parseInt(args[0]), "127.0.0.1")
        .setHandler(
            exchange -> {
              exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
              exchange.getResponseSender().send(body.duplicate());
            })
        .build()
        .start();
  }
}
