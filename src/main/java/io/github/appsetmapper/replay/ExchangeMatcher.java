package io.github.appsetmapper.replay;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.upstream.call.Headers;
import java.io.IOException;
import java.util.Map;

/** Whether a call is the one a recorded exchange expects. */
public final class ExchangeMatcher {
  private ExchangeMatcher() {}

  public static boolean matches(
      RecordedExchange exchange, String method, String url, Headers headers, byte[] body) {
    if (!exchange.method().equalsIgnoreCase(method) || !exchange.url().equals(url)) {
      return false;
    }
    for (Map.Entry<String, String> expected : exchange.headers().entrySet()) {
      if (!expected.getValue().equals(headers.first(expected.getKey()))) {
        return false;
      }
    }
    if (exchange.body() == null) {
      return true;
    }
    try {
      JsonNode want = JsonCodec.tree(exchange.body());
      JsonNode got = body == null ? null : JsonCodec.tree(body);
      return want.equals(got);
    } catch (IOException e) {
      return false;
    }
  }
}
