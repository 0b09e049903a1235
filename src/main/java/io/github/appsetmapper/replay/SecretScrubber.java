package io.github.appsetmapper.replay;

import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.json.JsonRefusal;
import io.github.appsetmapper.secret.CredentialHeaders;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.upstream.PercentEncoding;
import io.github.appsetmapper.upstream.call.Headers;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns the calls of a live run into recorded exchanges with no secret left ({@code record}):
 *
 * <ul>
 *   <li>each secret the mapping declares becomes its stand-in value (the test file's {@code
 *       secrets}), wherever it went: in the URL (also percent-encoded), a header (also inside
 *       {@code Basic} credentials), a body;
 *   <li>each token an upstream issued (a login, OAuth2, GitHub App or registry token: a credential
 *       a call sent that an earlier answer held) becomes {@code recorded-token-N}, in the answer
 *       that issued it and every call that sent it; string values of answer fields named like a
 *       credential ({@code refresh_token}, {@code client_secret}, ...) too;
 *   <li>a credential made on this machine for one call (a signed GitHub App JWT) is left out of the
 *       recorded request: it cannot be reproduced, and a header not recorded matches any;
 *   <li>then every text is checked with a redactor holding all of them, in every encoding it knows:
 *       what is still found becomes {@code ***}, with a note.
 * </ul>
 *
 * Response headers that say nothing about the answer ({@code Date}, {@code Set-Cookie}, hop by hop)
 * are left out.
 */
public final class SecretScrubber {
  private static final Set<String> DROPPED_RESPONSE_HEADERS =
      Set.of(
          "date",
          "set-cookie",
          "connection",
          "keep-alive",
          "transfer-encoding",
          "content-length",
          "content-encoding",
          "proxy-connection",
          "upgrade",
          "trailer",
          "alt-svc",
          "strict-transport-security");

  /** "Scheme credential" (Bearer, token, Basic, ...). */
  private static final Pattern SCHEMED = Pattern.compile("([A-Za-z][A-Za-z0-9._~+-]*) +(\\S+)");

  /** Answer fields whose string values are credentials whether or not a call sent them. */
  private static final Pattern CREDENTIAL_FIELD =
      Pattern.compile(
          "(?i).*(token|secret|password|passwd|api_?key|private_?key|credential|session).*");

  private static final Pattern NOT_A_CREDENTIAL_FIELD =
      Pattern.compile("(?i).*(type|_in|_at|url|uri|expires|expiry|scope)$");

  private final Map<String, String> replacements = new LinkedHashMap<>();
  private final Set<String> oneOff = new LinkedHashSet<>();
  private final Redactor check = new Redactor();
  private final Redactor live;
  private final List<String> notes = new ArrayList<>();
  private int tokens;

  private SecretScrubber(Map<String, String> secrets, Redactor live) {
    this.live = live;
    secrets.forEach(this::replace);
  }

  /**
   * A scrubber for the calls of one run.
   *
   * @param secrets each declared secret's value, with its stand-in
   * @param live the run's redactor (it holds the tokens the run fetched)
   */
  public static SecretScrubber of(
      List<CapturingUpstream.Captured> calls, Map<String, String> secrets, Redactor live) {
    SecretScrubber scrubber = new SecretScrubber(secrets, live);
    scrubber.discover(calls);
    return scrubber;
  }

  /** The calls as exchanges to record (each call must have an answer). */
  public List<RecordedExchange> exchanges(List<CapturingUpstream.Captured> calls) {
    List<RecordedExchange> out = new ArrayList<>();
    for (CapturingUpstream.Captured call : calls) {
      out.add(exchange(call.request(), call.response()));
    }
    return List.copyOf(out);
  }

  /** Data of the run's answer (parameters, an error message), scrubbed alike. */
  public Object answer(Object value) {
    return data(value, "the answer");
  }

  /** What a person should know about the recording, one line each. */
  public List<String> notes() {
    return List.copyOf(new LinkedHashSet<>(notes));
  }

  private void replace(String value, String standIn) {
    replacements.put(value, standIn);
    check.hold(value);
  }

  /** Finds the credentials the calls sent that are not declared secrets: tokens or one-offs. */
  private void discover(List<CapturingUpstream.Captured> calls) {
    for (int i = 0; i < calls.size(); i++) {
      UpstreamRequest request = calls.get(i).request();
      for (Headers.Header header : request.headers().fields()) {
        if (!carriesCredential(request, header.name())) {
          continue;
        }
        String credential = credential(header.value());
        if (credential == null || credential.isEmpty() || knownIn(credential)) {
          continue;
        }
        if (issuedBefore(credential, calls, i)) {
          replace(credential, "recorded-token-" + ++tokens);
        } else {
          oneOff.add(credential);
          check.hold(credential);
        }
      }
    }
    for (CapturingUpstream.Captured call : calls) {
      if (call.response() != null) {
        credentialFields(json(call.response().body()), null);
      }
    }
  }

  private static boolean carriesCredential(UpstreamRequest request, String header) {
    return CredentialHeaders.is(header)
        || request.sensitiveHeaders().contains(header.toLowerCase(Locale.ROOT));
  }

  /** The credential in a header value: after its scheme, decoded for Basic (the password). */
  private static String credential(String value) {
    Matcher schemed = SCHEMED.matcher(value.strip());
    if (!schemed.matches()) {
      return value.strip();
    }
    if (!schemed.group(1).equalsIgnoreCase("basic")) {
      return schemed.group(2);
    }
    String pair = decodeBasic(schemed.group(2));
    return pair == null || pair.indexOf(':') < 0 ? null : pair.substring(pair.indexOf(':') + 1);
  }

  /** Whether a declared secret or a known token is in {@code text}, in any form before base64. */
  private boolean knownIn(String text) {
    return replacements.keySet().stream()
        .anyMatch(value -> Redactor.wireForms(value).stream().anyMatch(text::contains));
  }

  private static boolean issuedBefore(
      String credential, List<CapturingUpstream.Captured> calls, int before) {
    for (int i = 0; i < before; i++) {
      UpstreamResponse response = calls.get(i).response();
      if (response == null) {
        continue;
      }
      String body = new String(response.body(), StandardCharsets.UTF_8);
      if (body.contains(credential) || body.contains(credential.replace("/", "\\/"))) {
        return true;
      }
      for (Headers.Header h : response.headers().fields()) {
        if (h.value().contains(credential)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Registers string values of credential-named fields of an answer. */
  private void credentialFields(Object data, String key) {
    if (data instanceof Map<?, ?> map) {
      map.forEach((k, v) -> credentialFields(v, String.valueOf(k)));
    } else if (data instanceof List<?> list) {
      list.forEach(v -> credentialFields(v, key));
    } else if (data instanceof String text
        && key != null
        && text.length() >= 8
        && CREDENTIAL_FIELD.matcher(key).matches()
        && !NOT_A_CREDENTIAL_FIELD.matcher(key).matches()
        && !replacements.containsKey(text)) {
      replace(text, "recorded-token-" + ++tokens);
    }
  }

  private RecordedExchange exchange(UpstreamRequest request, UpstreamResponse response) {
    String where = request.method() + " " + request.uri().getPath();
    Map<String, String> headers = new LinkedHashMap<>();
    for (Headers.Header header : request.headers().fields()) {
      if (oneOff.stream().anyMatch(header.value()::contains)) {
        notes.add(
            where
                + ": header "
                + header.name()
                + " holds a credential made for this one call (a signed token); it is not"
                + " recorded, so the case matches the call without it");
        continue;
      }
      headers.put(header.name(), checked(headerValue(header.value()), where));
    }
    Object body = null;
    Map<String, Object> form = null;
    byte[] sent = request.body();
    if (sent != null && sent.length > 0) {
      String contentType = String.valueOf(request.headers().first("Content-Type"));
      if (contentType.toLowerCase(Locale.ROOT).startsWith("application/x-www-form-urlencoded")) {
        form = form(new String(sent, StandardCharsets.UTF_8), where);
      } else {
        Object json = json(sent);
        body =
            json != null
                ? data(json, where)
                : checked(text(new String(sent, StandardCharsets.UTF_8)), where);
      }
    }
    Map<String, String> responseHeaders = new LinkedHashMap<>();
    for (Map.Entry<String, Object> h : response.headers().asMap().entrySet()) {
      if (!DROPPED_RESPONSE_HEADERS.contains(h.getKey())) {
        responseHeaders.put(
            canonical(h.getKey()), checked(text(String.valueOf(h.getValue())), where));
      }
    }
    return new RecordedExchange(
        request.method(),
        checked(url(request.uri().toString()), where),
        headers,
        body,
        form,
        response.status(),
        responseHeaders,
        responseBody(response.body(), where));
  }

  /** {@code x-total-count} as {@code X-Total-Count}: how people write header names. */
  private static String canonical(String name) {
    StringBuilder out = new StringBuilder(name.length());
    boolean upper = true;
    for (char c : name.toCharArray()) {
      out.append(upper ? Character.toUpperCase(c) : c);
      upper = c == '-';
    }
    return out.toString();
  }

  private byte[] responseBody(byte[] body, String where) {
    if (body == null || body.length == 0) {
      return new byte[0];
    }
    Object json = json(body);
    if (json != null) {
      Object scrubbed = data(json, where);
      if (scrubbed instanceof Map<?, ?> answer
          && issuesToken(answer)
          && answer.get("expires_at") != null) {
        // A token answer's expiry is a time (GitHub Apps): set far ahead, so that the case still
        // holds one token for the whole run when it runs next year.
        @SuppressWarnings("unchecked")
        Map<String, Object> fields = (Map<String, Object>) answer;
        fields.put("expires_at", FAR_AHEAD);
        notes.add(where + ": the issued token's expires_at is recorded as " + FAR_AHEAD);
      }
      return JsonCodec.writePretty(scrubbed, false).getBytes(StandardCharsets.UTF_8);
    }
    String text = utf8(body);
    if (text == null) {
      return body; // not text: kept as the upstream sent it
    }
    return checked(text(text), where).getBytes(StandardCharsets.UTF_8);
  }

  private static final String FAR_AHEAD = "2099-12-31T23:59:59Z";

  private boolean issuesToken(Map<?, ?> answer) {
    return answer.values().stream()
        .anyMatch(
            v ->
                v instanceof String text
                    && replacements.containsValue(text)
                    && text.startsWith("recorded-token-"));
  }

  private Map<String, Object> form(String body, String where) {
    Map<String, Object> fields = new LinkedHashMap<>();
    for (String pair : body.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int equals = pair.indexOf('=');
      String name = decode(equals < 0 ? pair : pair.substring(0, equals));
      String value = checked(text(decode(equals < 0 ? "" : pair.substring(equals + 1))), where);
      fields.merge(
          name,
          value,
          (a, b) -> {
            List<Object> values = new ArrayList<>(a instanceof List<?> l ? l : List.of(a));
            values.add(b);
            return values;
          });
    }
    return fields;
  }

  /** JSON data with every string scrubbed. */
  private Object data(Object value, String where) {
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> out.put(checked(text(String.valueOf(k)), where), data(v, where)));
      return out;
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      list.forEach(v -> out.add(data(v, where)));
      return out;
    }
    return Redactor.scalar(value, text -> checked(text(text), where));
  }

  /** A header value: a Basic credential is scrubbed inside its base64. */
  private String headerValue(String value) {
    Matcher schemed = SCHEMED.matcher(value.strip());
    if (schemed.matches() && schemed.group(1).equalsIgnoreCase("basic")) {
      String pair = decodeBasic(schemed.group(2));
      if (pair != null) {
        String scrubbed = text(pair);
        return schemed.group(1)
            + " "
            + Base64.getEncoder().encodeToString(scrubbed.getBytes(StandardCharsets.UTF_8));
      }
    }
    return text(value);
  }

  /** A URL: values also as they are percent-encoded in a query or a path. */
  private String url(String url) {
    String out = url;
    for (Map.Entry<String, String> r : byLength()) {
      String value = r.getKey();
      for (String form :
          List.of(
              value,
              PercentEncoding.queryComponent(value),
              PercentEncoding.pathSegment(value),
              URLEncoder.encode(value, StandardCharsets.UTF_8))) {
        out = out.replace(form, r.getValue());
      }
    }
    return out;
  }

  /**
   * Each value replaced by its stand-in in each form the redactor knows before base64, form for
   * form: a client secret form-encoded inside Basic (RFC 6749) becomes the stand-in form-encoded,
   * which is what the case sends when it runs.
   */
  private String text(String text) {
    String out = text;
    for (Map.Entry<String, String> r : byLength()) {
      List<String> forms = Redactor.wireForms(r.getKey());
      List<String> standIns = Redactor.wireForms(r.getValue());
      for (int i = 0; i < forms.size(); i++) {
        out = out.replace(forms.get(i), standIns.get(i));
      }
    }
    return out;
  }

  /** Longest first, so that a value holding another is replaced whole. */
  private List<Map.Entry<String, String>> byLength() {
    List<Map.Entry<String, String>> entries = new ArrayList<>(replacements.entrySet());
    entries.sort(
        Comparator.comparingInt((Map.Entry<String, String> e) -> e.getKey().length()).reversed());
    return entries;
  }

  /** The last check: a secret still there in any form is masked, and said. */
  private String checked(String text, String where) {
    String masked = live.redact(check.redact(text));
    if (!masked.equals(text)) {
      notes.add(
          where
              + ": a secret remained in a form the recording cannot replace; it is *** in the"
              + " file, so this call may not match when the case runs");
    }
    return masked;
  }

  private static Object json(byte[] body) {
    if (body == null || body.length == 0) {
      return null;
    }
    try {
      return JsonCodec.read(body);
    } catch (JsonRefusal e) {
      return null;
    }
  }

  private static String utf8(byte[] body) {
    try {
      return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(body)).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  private static String decode(String text) {
    try {
      return URLDecoder.decode(text, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return text;
    }
  }

  private static String decodeBasic(String base64) {
    try {
      return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
