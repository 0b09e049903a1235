package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.RowPath;
import io.github.appsetmapper.config.BodyFormat;
import io.github.appsetmapper.json.Growth;
import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.json.JsonRefusal;
import io.github.appsetmapper.json.TextBody;
import io.github.appsetmapper.json.YamlCodec;
import io.github.appsetmapper.text.Printable;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One page of a listing as a getparams holds it: the request that fetched it, the answer, and the
 * body parsed once, when something first reads it (failWhen, the paginator, items, select, value),
 * its estimated size counted against the memory budget by the {@link Owner}. JSON that the codec
 * refuses (a key twice in one object, a number beyond the bounds) is an error wherever the page is
 * read, never text. Errors name the call ("GET https://...: ..."); the reader adds its step.
 */
final class Page {
  /** Who counts what a page holds, and hears why an answer was refused. */
  interface Owner {
    /**
     * Holds {@code more} bytes of the page's data, {@code total} in all so far; {@code done}: the
     * data is complete (else it is still being built, and the 503 says so).
     */
    void hold(Page page, long more, long total, boolean done) throws RequestFailure;

    void refused(String reason);

    /** Upstream text as an error quotes it: redacted whole, then cut. */
    String excerpt(String upstreamText);
  }

  private final UpstreamRequest request;
  private final UpstreamResponse response;
  private final BodyFormat format;
  private final boolean textWhenNotJson;
  private final Owner owner;
  private boolean parsed;
  private Object document;
  private JsonRefusal refusal;
  private RequestFailure failure;
  private final Map<RowPath, List<Object>> rows = new IdentityHashMap<>();

  /**
   * @param format as the request states it; null when it states none (JSON, and text where {@link
   *     #lenient} reads a body that is not JSON)
   */
  Page(UpstreamRequest request, UpstreamResponse response, BodyFormat format, Owner owner) {
    this.request = request;
    this.response = response;
    this.format = format == null ? BodyFormat.JSON : format;
    this.textWhenNotJson = format == null;
    this.owner = owner;
  }

  UpstreamRequest request() {
    return request;
  }

  /** How the body is read (JSON unless the request states another format). */
  BodyFormat format() {
    return format;
  }

  UpstreamResponse response() {
    return response;
  }

  int status() {
    return response.status();
  }

  /** "GET https://...", as errors name the call. */
  String describe() {
    return request.describe();
  }

  /**
   * The body read in the request's {@code format} (JSON unless it says YAML or text); an empty JSON
   * or YAML body, or one its reader refuses, is an error naming why. Empty text is "".
   */
  synchronized Object json() throws RequestFailure {
    parse();
    if (failure != null) {
      throw failure;
    }
    if (response.body().length == 0) {
      if (format == BodyFormat.TEXT) {
        return "";
      }
      throw RequestFailure.of(
          request,
          "the answer has an empty body where "
              + (format == BodyFormat.YAML ? "YAML" : "JSON")
              + " was expected");
    }
    if (refusal != null) {
      throw refused(refusal);
    }
    return document;
  }

  /**
   * The body as a {@code value}, {@code failWhen}, {@code until} or a whole-body enrich sees it:
   * null when empty (HEAD, 204); without a stated {@code format}, JSON when it is JSON, else text.
   * A request that states its {@code format} ({@code json} too) gets its body in that format or the
   * error {@link #json} gives, never something else: JSON means JSON however the body is read.
   */
  synchronized Object lenient() throws RequestFailure {
    parse();
    if (failure != null) {
      throw failure;
    }
    if (response.body().length == 0) {
      return null;
    }
    if (refusal == null) {
      return document;
    }
    if (textWhenNotJson && refusal.kind() == JsonRefusal.Kind.SYNTAX) {
      return new String(response.body(), StandardCharsets.UTF_8);
    }
    throw refused(refusal);
  }

  /**
   * Whether {@link #lenient} gives this body as text because it is not JSON (the request states no
   * {@code format}): an expression that then fails on it met a body it did not expect ({@link
   * #notJson}), most often a sign-in or a proxy's error page answered with a 2xx.
   */
  synchronized boolean textForNotJson() throws RequestFailure {
    parse();
    return failure == null
        && response.body().length > 0
        && textWhenNotJson
        && refusal != null
        && refusal.kind() == JsonRefusal.Kind.SYNTAX;
  }

  /**
   * Why this body cannot be read as JSON, as one line naming the call: "answered 200 with text/html
   * (not JSON): '&lt;!DOCTYPE html&gt;...'", its first characters redacted and cut. Who throws it
   * counts the refusal ({@link #refusedBy}, {@code not-json}).
   */
  RequestFailure notJson() {
    RequestFailure why = RequestFailure.of(request, NotJson.line(response, owner::excerpt));
    return refusal == null ? why : why.causedBy(refusal);
  }

  /** {@code response}: status, headers and body ({@link #lenient}). */
  Map<String, Object> view() throws RequestFailure {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("status", response.status());
    view.put("headers", presentHeaders());
    view.put("body", lenient());
    return view;
  }

  /**
   * The headers as {@code response.headers} reads them: a header sent with an empty value reads as
   * absent (null), so that it is "missing" to an enrich, never a blank parameter.
   */
  private Map<String, Object> presentHeaders() {
    Map<String, Object> all = response.headers().asMap();
    Map<String, Object> present = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    all.forEach(
        (name, value) -> {
          if (value != null && !value.toString().isBlank()) {
            present.put(name, value);
          }
        });
    return java.util.Collections.unmodifiableMap(present);
  }

  /**
   * The rows {@code path} selects on this page, read once. {@code field} names the path in errors
   * ({@code items}, {@code select}).
   */
  synchronized List<Object> rows(RowPath path, String field) throws RequestFailure {
    List<Object> found = rows.get(path);
    if (found != null) {
      return found;
    }
    Object body = data();
    try {
      found = path.rows(body);
    } catch (RowPath.Missing e) {
      owner.refused("missing-container");
      throw RequestFailure.of(
          request, field + " '" + path.path().getPath() + "': " + e.getMessage());
    }
    rows.put(path, found);
    return found;
  }

  /** Whether {@code path} reads a listing here ({@link RowPath#listing}). */
  synchronized boolean listing(RowPath path, String field) throws RequestFailure {
    rows(path, field);
    return path.listing(data());
  }

  /**
   * The elements this page holds for {@code path} ({@link RowPath#elementValues}): what a total, a
   * page count or a page size counts, never the rows the path selects.
   */
  synchronized List<Object> elementValues(RowPath path, String field) throws RequestFailure {
    rows(path, field);
    try {
      return path.elementValues(data());
    } catch (RowPath.Missing e) {
      owner.refused("missing-container");
      throw RequestFailure.of(
          request, field + " '" + path.path().getPath() + "': " + e.getMessage());
    }
  }

  /**
   * With {@code list.entries}: each object {@code objects} selects gives one row per entry and per
   * match of {@code each} on the entry's value, {@code {key, value}}, in document order. What
   * {@code objects} selects must be objects: a list is an error, never its elements as entries.
   */
  synchronized List<Object> entryRows(RowPath objects, RowPath each) throws RequestFailure {
    Object body = data();
    List<Object> found;
    try {
      found = objects.matches(body);
    } catch (RowPath.Missing e) {
      owner.refused("missing-container");
      throw RequestFailure.of(
          request, "items '" + objects.path().getPath() + "': " + e.getMessage());
    }
    List<Object> out = new ArrayList<>();
    for (Object object : found) {
      if (!(object instanceof Map<?, ?> map)) {
        owner.refused("missing-container");
        throw RequestFailure.of(
            request,
            "items '"
                + objects.path().getPath()
                + "': entries needs an object here, got "
                + (object instanceof List ? "a list" : object == null ? "null" : "a value"));
      }
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        List<Object> values;
        try {
          values = each.matches(entry.getValue());
        } catch (RowPath.Missing e) {
          owner.refused("missing-container");
          throw RequestFailure.of(
              request,
              "entries '"
                  + each.path().getPath()
                  + "' on the value of '"
                  + shorten(String.valueOf(entry.getKey()))
                  + "': "
                  + e.getMessage());
        }
        for (Object value : values) {
          Map<String, Object> row = new LinkedHashMap<>();
          row.put("key", entry.getKey());
          row.put("value", value);
          out.add(Collections.unmodifiableMap(row));
        }
      }
    }
    return out;
  }

  private static String shorten(String key) {
    return Printable.cut(key, 80);
  }

  /** The body as data rows are read from: a YAML document that is one text is no such thing. */
  private Object data() throws RequestFailure {
    Object body = json();
    if (body == null) {
      throw RequestFailure.of(request, "the answer is JSON null");
    }
    if (format == BodyFormat.YAML && !(body instanceof Map) && !(body instanceof List)) {
      // Any text is a YAML document (a plain scalar): an HTML page would read as one.
      owner.refused("not-yaml");
      throw RequestFailure.of(request, "the answer is not a YAML map or list (a text page?)");
    }
    return body;
  }

  /** Upstream text as an error may quote it: redacted whole, then cut. */
  String excerpt(String upstreamText) {
    return owner.excerpt(upstreamText);
  }

  /** Tells the owner an answer was refused, and why ("cursor-holder"), for the metrics. */
  void refusedBy(String reason) {
    owner.refused(reason);
  }

  private void parse() throws RequestFailure {
    if (parsed) {
      return;
    }
    parsed = true;
    if (response.body().length == 0) {
      return;
    }
    if (response.endedByClose() && response.isSuccess() && !cutShows()) {
      owner.refused("ended-by-close");
      failure =
          RequestFailure.of(
              request,
              "the answer had neither a Content-Length nor chunks: its end was the connection"
                  + " closing, so a cut "
                  + (format == BodyFormat.YAML
                      ? "YAML"
                      : format == BodyFormat.JSON ? "JSON" : "text")
                  + " answer would read as a whole one (serve it with a length or chunked)");
      return;
    }
    // Held as it is built, a step at a time (json/Growth): neither one answer nor several at once
    // can build past the budget before it is asked.
    long[] held = {0};
    Growth growth =
        reached -> {
          if (reached > held[0]) {
            try {
              owner.hold(this, reached - held[0], reached, false);
            } catch (RequestFailure e) {
              throw new Growth.Stop(e);
            }
            held[0] = reached;
          }
        };
    try {
      JsonCodec.Measured measured =
          switch (format) {
            case JSON -> JsonCodec.measure(response.body(), growth);
            case YAML -> YamlCodec.measure(response.body(), growth);
            case TEXT -> TextBody.measure(response.body());
          };
      owner.hold(this, Math.max(0, measured.bytes() - held[0]), measured.bytes(), true);
      document = measured.document();
    } catch (JsonRefusal e) {
      refusal = e;
    } catch (RequestFailure e) {
      failure = e;
    } catch (Growth.Stop stop) {
      failure = (RequestFailure) stop.reason();
    }
  }

  /**
   * Whether a cut of this body would fail to parse: a JSON object or list (its closing bracket is
   * last). Block YAML or lines cut at a line end, a top-level JSON number or a text read when it is
   * not JSON (`12345` cut to `12`) read as whole, fewer rows or another value.
   */
  private boolean cutShows() {
    if (format != BodyFormat.JSON && !textWhenNotJson) {
      return false;
    }
    for (byte b : response.body()) {
      if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
        return b == '{' || b == '[';
      }
    }
    return false;
  }

  private RequestFailure refused(JsonRefusal e) {
    owner.refused(
        switch (e.kind()) {
          case DUPLICATE_KEY -> "duplicate-key";
          case NUMBER -> "number-bounds";
          case LIMIT -> format + "-limit";
          case SYNTAX -> "not-" + format;
          case UNSUPPORTED -> format + "-unsupported";
          case TEXT -> "not-unicode";
        });
    String why =
        format == BodyFormat.JSON
            ? e.kind() == JsonRefusal.Kind.SYNTAX
                ? NotJson.line(response, owner::excerpt)
                : ResponseBodies.refusal(e, owner::excerpt)
            : "the answer " + e.located(owner::excerpt);
    return RequestFailure.of(request, why).causedBy(e);
  }
}
