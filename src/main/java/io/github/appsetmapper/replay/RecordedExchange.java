package io.github.appsetmapper.replay;

import java.util.Map;

/**
 * One upstream call a test case expects and the answer to give. The request matches on method and
 * URL, and on {@code headers} (each named header must be present with that value) and {@code body}
 * (equal as JSON) when they are given.
 */
public record RecordedExchange(
    String method,
    String url,
    Map<String, String> headers,
    Object body,
    int status,
    Map<String, String> responseHeaders,
    byte[] responseBody) {}
