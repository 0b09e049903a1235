package io.github.appsetmapper.server;

import io.undertow.server.HttpServerExchange;
import io.undertow.util.AttachmentKey;
import io.undertow.util.HeaderValues;
import io.undertow.util.Headers;
import io.undertow.util.PathTemplateMatch;
import java.nio.charset.StandardCharsets;

/** What every handler reads from and writes to an exchange. */
final class Exchanges {
  /** The request body, once read (see {@link BodyReader}). */
  static final AttachmentKey<byte[]> BODY = AttachmentKey.create(byte[].class);

  /** The route's name, for the refusal metric and log. */
  static final AttachmentKey<String> ROUTE = AttachmentKey.create(String.class);

  private Exchanges() {}

  /**
   * A JSON answer; nothing when an answer already started (a timed-out body, say). Always sent from
   * the IO thread: an exchange ended on a worker hands the connection back to the IO thread through
   * Undertow's spin ({@code HttpReadListener}), and when the caller's next request wakes the IO
   * thread on the worker's CPU while the worker is between the two steps of that hand-back, the IO
   * thread spins until the worker gets the CPU back (about 1 ms of CPU and of latency a call with
   * one caller on one CPU). From a worker the send is handed to the IO thread once the handler
   * returns, which the end of the exchange wakes anyway.
   */
  static void send(HttpServerExchange exchange, int status, String body) {
    if (exchange.isInIoThread()) {
      sendHere(exchange, status, body);
    } else {
      exchange.dispatch(exchange.getIoThread(), done -> sendHere(done, status, body));
    }
  }

  private static void sendHere(HttpServerExchange exchange, int status, String body) {
    if (exchange.isResponseStarted()) {
      return;
    }
    exchange.setStatusCode(status);
    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
    exchange.getResponseSender().send(body, StandardCharsets.UTF_8);
  }

  /**
   * As {@link #send(HttpServerExchange, int, String)}, the answer's bytes as they are: a getparams
   * answer is encoded by the engine within its deadline ({@code AnswerBody.bytes}), so nothing that
   * grows with it is left to do here. {@code body} is only read (a coalesced answer's is shared).
   */
  static void send(HttpServerExchange exchange, int status, String contentType, byte[] body) {
    if (exchange.isInIoThread()) {
      sendHere(exchange, status, contentType, body);
    } else {
      exchange.dispatch(exchange.getIoThread(), done -> sendHere(done, status, contentType, body));
    }
  }

  private static void sendHere(
      HttpServerExchange exchange, int status, String contentType, byte[] body) {
    if (exchange.isResponseStarted()) {
      return;
    }
    exchange.setStatusCode(status);
    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, contentType);
    exchange.getResponseSender().send(java.nio.ByteBuffer.wrap(body));
  }

  /** The body read by {@link BodyReader}; empty when there was none. */
  static byte[] body(HttpServerExchange exchange) {
    byte[] body = exchange.getAttachment(BODY);
    return body == null ? new byte[0] : body;
  }

  /** The {@code {name}} of the route's path template, or null on a route without one. */
  static String mappingName(HttpServerExchange exchange) {
    PathTemplateMatch match = exchange.getAttachment(PathTemplateMatch.ATTACHMENT_KEY);
    return match == null ? null : match.getParameters().get("name");
  }

  static String route(HttpServerExchange exchange) {
    String route = exchange.getAttachment(ROUTE);
    return route == null ? "other" : route;
  }

  /** The token of a single {@code Authorization: Bearer} header, or null. */
  static String bearer(HttpServerExchange exchange) {
    HeaderValues values = exchange.getRequestHeaders().get(Headers.AUTHORIZATION);
    if (values != null && values.size() == 1) {
      String header = values.getFirst();
      if (header.regionMatches(true, 0, "Bearer ", 0, 7)) {
        return header.substring(7).strip();
      }
    }
    return null;
  }

  /** The caller's address, for the log. */
  static String client(HttpServerExchange exchange) {
    return exchange.getSourceAddress() == null || exchange.getSourceAddress().getAddress() == null
        ? "?"
        : exchange.getSourceAddress().getAddress().getHostAddress();
  }
}
