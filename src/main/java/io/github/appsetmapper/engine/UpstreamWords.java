package io.github.appsetmapper.engine;

import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.json.JsonRefusal;
import io.github.appsetmapper.json.YamlCodec;
import io.github.appsetmapper.logging.LogText;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.text.Printable;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What an upstream said in an error answer, for the 502 line (and so explain, logs and the
 * ApplicationSet status): the text of the common error envelopes ({@code message}, {@code error},
 * {@code error.message}, {@code errors[].message}, RFC 7807 {@code title}/{@code detail}), or for a
 * body that is no JSON or YAML, its Content-Type and first bytes ({@code text/html: <!DOCTYPE
 * html>...}). Always redacted before it is cut, cut to {@link #MAX_CHARS}, control characters
 * escaped. The body is already within the size cap; only its first {@link #MAX_PARSED_BYTES} are
 * ever parsed, so a huge error body costs no more than a small one.
 */
final class UpstreamWords {
  /** Error envelopes are small; a longer body is shown by its first bytes, never parsed. */
  static final int MAX_PARSED_BYTES = 64 * 1024;

  /** What a message may take of the 502 line. */
  static final int MAX_CHARS = 160;

  /**
   * How much of a body that is no envelope can show, of the {@link NotJson#REDACTED_BYTES}
   * redacted: a secret that starts in the part shown is whole in the part redacted, so no prefix of
   * it is left.
   */
  private static final int SHOWN_CHARS = 1024;

  /** How many of {@code errors[]}'s messages are joined. */
  private static final int MAX_ERRORS = 3;

  private UpstreamWords() {}

  /** " (what the upstream said)", or "" when it said nothing (an empty body). */
  static String of(UpstreamResponse response, Redactor redactor) {
    byte[] body = response.body();
    if (body.length == 0) {
      return "";
    }
    String type = contentType(response, redactor);
    String said = null;
    boolean structured = false;
    if (body.length <= MAX_PARSED_BYTES) {
      Object data = parse(body, type);
      if (data != null) {
        structured = true;
        said = envelope(data);
      }
    }
    if (said == null && !structured) {
      said = (type.isEmpty() ? "" : type + ": ") + firstChars(body, redactor);
    }
    if (said == null || said.isBlank()) {
      return "";
    }
    // Redacted before it is cut (no secret's prefix left behind), escaped after (one line, no
    // ESC or bidi control reaching a terminal or the ApplicationSet status).
    return " (" + escape(redactor.excerpt(said, MAX_CHARS)) + ")";
  }

  private static String contentType(UpstreamResponse response, Redactor redactor) {
    String type = response.headers().first("Content-Type");
    if (type == null) {
      return "";
    }
    int semicolon = type.indexOf(';');
    // Redacted before it is cut: an upstream may echo anything in a header.
    String bare = redactor.redact((semicolon < 0 ? type : type.substring(0, semicolon)).strip());
    return Printable.cut(bare, 60);
  }

  /** JSON, or YAML when the Content-Type says so; null when it is neither (or a bare scalar). */
  private static Object parse(byte[] body, String type) {
    try {
      Object data;
      if (type.toLowerCase(Locale.ROOT).contains("yaml")) {
        data = YamlCodec.measure(body).document();
      } else {
        data = JsonCodec.read(body);
      }
      return data instanceof Map<?, ?> || data instanceof List<?> ? data : null;
    } catch (JsonRefusal | RuntimeException e) {
      return null;
    }
  }

  /** The envelope's text, or null when it has none of the known fields. */
  private static String envelope(Object data) {
    if (data instanceof List<?> list) {
      return messages(list);
    }
    Map<?, ?> map = (Map<?, ?>) data;
    String message = text(map.get("message"));
    if (message != null) {
      return message;
    }
    Object error = map.get("error");
    if (text(error) != null) {
      return text(error);
    }
    if (error instanceof Map<?, ?> inner) {
      String said = text(inner.get("message"));
      if (said != null) {
        return said;
      }
    }
    if (map.get("errors") instanceof List<?> errors) {
      String said = messages(errors);
      if (said != null) {
        return said;
      }
    }
    String title = text(map.get("title"));
    String detail = text(map.get("detail"));
    if (title != null || detail != null) {
      return title == null ? detail : detail == null ? title : title + ": " + detail;
    }
    return null;
  }

  /** The first few {@code message}s of a list of errors, joined by "; ". */
  private static String messages(List<?> errors) {
    List<String> said = new ArrayList<>();
    for (Object error : errors) {
      if (said.size() == MAX_ERRORS) {
        break;
      }
      String message = error instanceof Map<?, ?> map ? text(map.get("message")) : text(error);
      if (message != null) {
        said.add(message);
      }
    }
    return said.isEmpty() ? null : String.join("; ", said);
  }

  private static String text(Object value) {
    return value instanceof String text && !text.isBlank() ? text : null;
  }

  /** The first bytes as text, redacted: invalid UTF-8 as U+FFFD, "..." when there is more. */
  private static String firstChars(byte[] body, Redactor redactor) {
    String first = NotJson.firstChars(body);
    boolean more = body.length > NotJson.REDACTED_BYTES;
    String redacted = redactor.redact(more ? first.substring(0, first.length() - 3) : first);
    if (redacted.length() > SHOWN_CHARS) {
      int cut =
          Character.isLowSurrogate(redacted.charAt(SHOWN_CHARS)) ? SHOWN_CHARS - 1 : SHOWN_CHARS;
      return redacted.substring(0, cut) + "...";
    }
    return redacted + (more ? "..." : "");
  }

  /** Control characters and the invisible format ones (bidi overrides, zero widths) as escapes. */
  private static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.getType(c) == Character.FORMAT) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return LogText.escape(out.toString());
  }
}
