package io.github.appsetmapper.replay;

import java.util.Map;

/**
 * One upstream call a test case expects and the answer to give. The request matches on method and
 * URL (its query parameters in any order), and on {@code headers} (each named header must be
 * present with that value) and the body when they are given: {@code body} as JSON data (equal as
 * JSON) or a string (equal as text), or {@code form}, the fields of an {@code
 * application/x-www-form-urlencoded} body in any order. An {@code optional} exchange may go unused
 * (a call whose making depends on timing: made alongside one that failed).
 */
public record RecordedExchange(
    String method,
    String url,
    Map<String, String> headers,
    Object body,
    Map<String, Object> form,
    int status,
    Map<String, String> responseHeaders,
    byte[] responseBody,
    boolean optional) {

  public RecordedExchange(
      String method,
      String url,
      Map<String, String> headers,
      Object body,
      Map<String, Object> form,
      int status,
      Map<String, String> responseHeaders,
      byte[] responseBody) {
    this(method, url, headers, body, form, status, responseHeaders, responseBody, false);
  }

  /** This exchange, allowed to go unused or not. */
  public RecordedExchange optional(boolean value) {
    return new RecordedExchange(
        method, url, headers, body, form, status, responseHeaders, responseBody, value);
  }

  /** Without a form. */
  public RecordedExchange(
      String method,
      String url,
      Map<String, String> headers,
      Object body,
      int status,
      Map<String, String> responseHeaders,
      byte[] responseBody) {
    this(method, url, headers, body, null, status, responseHeaders, responseBody);
  }

  /** The same exchange at another URL with another answer (a test pointing it at a stub). */
  public RecordedExchange movedTo(
      String newUrl, Map<String, String> newResponseHeaders, byte[] newResponseBody) {
    return new RecordedExchange(
        method, newUrl, headers, body, form, status, newResponseHeaders, newResponseBody, optional);
  }
}
