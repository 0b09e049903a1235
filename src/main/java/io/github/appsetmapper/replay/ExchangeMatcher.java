package io.github.appsetmapper.replay;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.upstream.call.Headers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Whether a call is the one a recorded exchange expects. */
public final class ExchangeMatcher {
  private ExchangeMatcher() {}

  public static boolean matches(
      RecordedExchange exchange, String method, String url, Headers headers, byte[] body) {
    if (!exchange.method().equalsIgnoreCase(method) || !QueryString.sameUrl(exchange.url(), url)) {
      return false;
    }
    for (Map.Entry<String, String> expected : exchange.headers().entrySet()) {
      if (!expected.getValue().equals(headers.first(expected.getKey()))) {
        return false;
      }
    }
    return bodyMatches(exchange, body);
  }

  /** Whether the body is the one the exchange expects (any body when it names none). */
  static boolean bodyMatches(RecordedExchange exchange, byte[] body) {
    if (exchange.form() != null) {
      return body != null && formPairs(exchange.form()).equals(QueryString.formPairs(text(body)));
    }
    if (exchange.body() == null) {
      return true;
    }
    if (exchange.body() instanceof String expected) {
      return body != null && expected.equals(text(body));
    }
    try {
      JsonNode want = JsonCodec.tree(exchange.body());
      JsonNode got = body == null ? null : JsonCodec.tree(body);
      return want.equals(got);
    } catch (IOException e) {
      return false;
    }
  }

  /** A recorded form's fields as {@code name=value} pairs, sorted (a list is several values). */
  static List<String> formPairs(Map<String, Object> form) {
    List<String> out = new ArrayList<>();
    form.forEach(
        (name, value) -> {
          if (value instanceof List<?> values) {
            values.forEach(v -> out.add(name + "=" + (v == null ? "" : v)));
          } else {
            out.add(name + "=" + (value == null ? "" : value));
          }
        });
    out.sort(null);
    return out;
  }

  static String text(byte[] body) {
    return new String(body, StandardCharsets.UTF_8);
  }
}
