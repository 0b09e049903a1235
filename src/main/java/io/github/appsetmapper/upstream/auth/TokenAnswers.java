package io.github.appsetmapper.upstream.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.json.JsonRefusal;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.text.NotJsonText;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/** Reading token endpoints' JSON answers: OAuth2, registry token servers, GitHub. */
final class TokenAnswers {
  private TokenAnswers() {}

  /**
   * The answer as JSON (JSON null when it is not JSON, so that the token is reported missing).
   *
   * @throws IllegalArgumentException for JSON the codec refuses (a key twice, a number beyond the
   *     bounds): which token was meant cannot be told
   */
  static JsonNode json(UpstreamResponse response) {
    JsonNode node = jsonOrNull(response);
    return node == null ? NullNode.getInstance() : node;
  }

  /**
   * The answer as JSON, null when it is not JSON (an HTML sign-in page, a proxy's text error).
   *
   * @throws IllegalArgumentException for JSON the codec refuses
   */
  static JsonNode jsonOrNull(UpstreamResponse response) {
    try {
      return JsonCodec.tree(response.body());
    } catch (JsonRefusal e) {
      if (e.kind() == JsonRefusal.Kind.SYNTAX) {
        return null;
      }
      throw new IllegalArgumentException("the answer " + e.located());
    }
  }

  /**
   * What came back where a token answer's JSON was read: "answered 200 with text/html (not JSON)",
   * by status and Content-Type only. Its body is never quoted: a token endpoint may answer with the
   * credential itself in a form no reader expects (a bare token or JWT, {@code access_token=...}, a
   * {@code token:} line), and no redactor knows a token just issued.
   */
  static String notJson(UpstreamResponse response) {
    return NotJsonText.unquoted(response.status(), response.headers().first("Content-Type"))
        + " (its body is not quoted: a token endpoint's answer may hold a credential)";
  }

  /** {@link #json} for an error answer: whatever can be read of it. */
  private static JsonNode lenient(UpstreamResponse response) {
    try {
      return json(response);
    } catch (IllegalArgumentException e) {
      return NullNode.getInstance();
    }
  }

  static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    // Only text is a token: a JSON null, true or a number would go out as "Bearer null", and a
    // control character has no place in a header.
    return value != null
            && value.isTextual()
            && !value.asText().isBlank()
            && value.asText().chars().noneMatch(c -> c < 0x20 || c == 0x7f)
        ? value.asText()
        : null;
  }

  /** {@code expires_in} in seconds (a number, or a number as a string), or null. */
  static Duration seconds(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return null;
    }
    try {
      long seconds =
          value.isNumber() ? value.asLong() : Long.parseLong(value.asText().trim().split("\\.")[0]);
      return seconds > 0 ? Duration.ofSeconds(seconds) : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  static Instant instant(JsonNode node, String field) {
    String text = text(node, field);
    if (text == null) {
      return null;
    }
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** " (invalid_client)": the endpoint's own short error code, when it sent one. */
  static String errorCode(UpstreamResponse response, Redactor redactor) {
    JsonNode node = lenient(response);
    String code = text(node, "error");
    if (code == null) {
      code = text(node, "message");
    }
    if (code == null && node.get("errors") != null && node.get("errors").isArray()) {
      JsonNode first = node.get("errors").get(0);
      code = first == null ? null : text(first, "code");
    }
    if (code == null) {
      return "";
    }
    // Redacted before it is cut: a token endpoint may echo the client secret.
    return " (" + redactor.excerpt(code, 120) + ")";
  }
}
