package io.github.appsetmapper.boundary;

import io.github.appsetmapper.testing.SecretForms;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;

/**
 * The hostile upstream behaviours of the boundary suite, one stub route each ({@code /case/NAME}).
 * Each says what the upstream's complete data is ({@link Hostile#rows}): a 2xx must carry exactly
 * those rows (or at least {@link Hostile#count} of them when the values are not comparable); {@code
 * null} means no complete data can be told from the answer, so only a non-2xx keeps the promise.
 */
public final class HostileUpstreams {
  /** What every hostile case echoes, in every derived form; also the mapping's API key. */
  public static final String SECRET = "Zq7-Key~!*'();:@&=+$,/?#[]%-9f3a7c2e";

  public static final List<Map<String, Object>> FULL =
      List.of(Map.of("id", "a"), Map.of("id", "b"), Map.of("id", "c"));
  static final String FULL_JSON = "{\"items\":[{\"id\":\"a\"},{\"id\":\"b\"},{\"id\":\"c\"}]}";

  /**
   * One behaviour. {@code rows}: the complete answer's rows, null when only an error is right;
   * {@code count}: compared instead when the values are not comparable (huge numbers), else -1. No
   * case is ever skipped: a hole found is fixed, not listed.
   */
  public record Hostile(
      String name, String label, Reply reply, List<Map<String, Object>> rows, int count) {
    Hostile(String name, Reply reply, List<Map<String, Object>> rows, int count) {
      this(name, name, reply, rows, count);
    }

    static Hostile error(String name, Reply reply) {
      return new Hostile(name, reply, null, -1);
    }

    static Hostile full(String name, Reply reply, List<Map<String, Object>> rows) {
      return new Hostile(name, reply, rows, -1);
    }

    Hostile describedAs(String form) {
      return new Hostile(name, name + " (" + form + ")", reply, rows, count);
    }

    @Override
    public String toString() {
      return label;
    }
  }

  /** Released when the suite ends: the hanging upstream's threads. */
  public static final CountDownLatch RELEASE = new CountDownLatch(1);

  /** The mapping every case runs: one list call carrying the secret, one row per item. */
  public static String mapping(Path secretFile, String timeout) {
    return """
        name: hostile
        input: {case: {required: true, pattern: "[a-z0-9-]{1,60}"}}
        vars: {up: {default: "http://unset.invalid"}}
        secrets: {key: {file: %s}}
        defaults: {timeout: %s}
        list:
          request:
            url: "#{vars.up}/case/#{input.case}"
            headers: {Authorization: "Bearer #{secret.key}"}
          items: "$.items[*]"
        parameters: {id: item.id}
        """
        .formatted(secretFile, timeout);
  }

  private HostileUpstreams() {}

  public static List<Hostile> all() {
    List<Hostile> out = new ArrayList<>();
    out.add(Hostile.full("ok", json(200, FULL_JSON), FULL));
    out.add(Hostile.error("truncated-json", json(200, "{\"items\":[{\"id\":\"a\"},{\"id\":\"b\"")));
    out.add(
        Hostile.error(
            "html-200",
            body(200, "text/html", "<!DOCTYPE html><html><body>Sign in</body></html>")));
    out.add(
        Hostile.error(
            "deep-10k", json(200, "{\"items\":" + "[".repeat(10_000) + "]".repeat(10_000) + "}")));
    out.add(Hostile.error("body-50mb", Reply.custom(HostileUpstreams::fiftyMegabytes)));
    out.add(Hostile.error("gzip-bomb", gzipBomb()));
    out.add(Hostile.error("slow-drip", Reply.custom(HostileUpstreams::slowDrip)));
    out.add(Hostile.error("hang", Reply.custom(e -> RELEASE.await(5, TimeUnit.MINUTES))));
    out.add(Hostile.error("connection-reset", Reply.custom(HostileUpstreams::cutShort)));
    out.add(Hostile.full("wrong-content-type", body(200, "text/plain", FULL_JSON), FULL));
    out.add(
        Hostile.full(
            "control-characters",
            json(
                200,
                "{\"items\":[{\"id\":\"n\\u0000ul\"},{\"id\":\"e\\u001b[31msc\"},"
                    + "{\"id\":\"c\\r\\nr\"},{\"id\":\"\\u202egnp.exe\"}]}"),
            List.of(
                Map.of("id", "n\u0000ul"),
                Map.of("id", "e\u001b[31msc"),
                Map.of("id", "c\r\nr"),
                Map.of("id", "\u202egnp.exe"))));
    out.add(
        Hostile.error(
            "duplicate-keys",
            json(200, "{\"items\":[{\"id\":\"a\"},{\"id\":\"b\"}],\"items\":[]}")));
    out.add(
        new Hostile(
            "huge-numbers",
            json(
                200,
                "{\"items\":[{\"id\":1e400},{\"id\":123456789012345678901234567890123456789}]}"),
            null,
            2));
    out.add(Hostile.error("null-list", json(200, "{\"items\":null}")));
    out.add(Hostile.error("missing-list", json(200, "{\"total\":3}")));
    out.add(Hostile.error("empty-body-200", body(200, "application/json", "")));
    out.add(
        Hostile.error(
            "error-envelope-200", json(200, "{\"errors\":[{\"message\":\"rate limited\"}]}")));
    out.add(
        new Hostile(
            "bad-utf8",
            new Reply(
                200,
                Map.of("Content-Type", "application/json"),
                concat("{\"items\":[{\"id\":\"a", new byte[] {(byte) 0xff, (byte) 0xc3}, "\"}]}"),
                0,
                null),
            null,
            1));
    out.addAll(echoes());
    return out;
  }

  /** The secret echoed back, in each form, in an error body, a 200 body, headers and HTML. */
  static List<Hostile> echoes() {
    Map<String, String> forms = new LinkedHashMap<>(SecretForms.echoes("user", SECRET));
    forms.put("lowercased", SECRET.toLowerCase(java.util.Locale.ROOT));
    forms.put("uppercased", SECRET.toUpperCase(java.util.Locale.ROOT));
    List<Hostile> out = new ArrayList<>();
    int i = 0;
    for (Map.Entry<String, String> form : forms.entrySet()) {
      String echo = form.getValue();
      String tag = "echo" + i++ + "-";
      String quoted = io.github.appsetmapper.json.JsonCodec.write(echo);
      out.add(
          Hostile.error(
                  tag + "error-json",
                  json(401, "{\"message\":\"bad token " + inner(quoted) + "\"}"))
              .describedAs(form.getKey()));
      out.add(
          Hostile.error(
                  tag + "error-html",
                  body(500, "text/html", "<html><body>token " + echo + " refused</body></html>"))
              .describedAs(form.getKey()));
      // A header holds no line break: a form folded over two lines is echoed in bodies only.
      boolean oneLine = echo.indexOf('\r') < 0 && echo.indexOf('\n') < 0;
      if (oneLine && echo.indexOf(';') < 0 && echo.indexOf(',') < 0) {
        // A Content-Type can hold the forms without ';' and ',' whole.
        out.add(
            Hostile.error(tag + "error-type", body(502, "text/" + echo, "bad gateway"))
                .describedAs(form.getKey()));
      }
      if (oneLine) {
        out.add(
            Hostile.full(
                    tag + "header",
                    json(200, FULL_JSON)
                        .withHeader("X-Echo", echo)
                        .withHeader(
                            "Link", "<http://127.0.0.1:1/next?token=" + echo + ">; rel=\"self\""),
                    FULL)
                .describedAs(form.getKey()));
      }
      out.add(
          Hostile.full(
                  tag + "body",
                  json(200, "{\"items\":[{\"id\":\"a\",\"note\":" + quoted + "}]}"),
                  List.of(Map.of("id", "a")))
              .describedAs(form.getKey()));
    }
    return out;
  }

  private static String inner(String quoted) {
    return quoted.substring(1, quoted.length() - 1);
  }

  public static void install(StubUpstream stub, List<Hostile> cases) {
    Map<String, Reply> byName = new LinkedHashMap<>();
    for (Hostile c : cases) {
      byName.put(c.name(), c.reply());
    }
    stub.otherwise(
        r -> {
          String path = r.rawUri();
          String name = path.startsWith("/case/") ? path.substring("/case/".length()) : "";
          Reply reply = byName.get(name);
          return reply == null ? Reply.json(404, "{\"message\":\"no such case\"}") : reply;
        });
  }

  static Reply json(int status, String json) {
    return Reply.json(status, json);
  }

  static Reply body(int status, String type, String text) {
    return new Reply(
        status, Map.of("Content-Type", type), text.getBytes(StandardCharsets.UTF_8), 0, null);
  }

  private static byte[] concat(String a, byte[] b, String c) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(a.getBytes(StandardCharsets.UTF_8));
    out.writeBytes(b);
    out.writeBytes(c.getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  /** 50 MB of a valid-looking JSON list, streamed, no length declared: the cap must stop it. */
  private static void fiftyMegabytes(HttpServerExchange exchange) throws Exception {
    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
    byte[] chunk = "{\"id\":\"x\"},".repeat(6000).getBytes(StandardCharsets.US_ASCII);
    try (OutputStream out = exchange.getOutputStream()) {
      out.write("{\"items\":[".getBytes(StandardCharsets.US_ASCII));
      for (long sent = 0; sent < 50L * 1024 * 1024; sent += chunk.length) {
        out.write(chunk);
      }
      out.write("{\"id\":\"x\"}]}".getBytes(StandardCharsets.US_ASCII));
    } catch (java.io.IOException gone) {
      // The client stopped reading: what the cap is for.
    }
  }

  /** 64 MiB of zeros, gzip'd to a few tens of KiB. */
  private static Reply gzipBomb() {
    ByteArrayOutputStream packed = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(packed)) {
      byte[] zeros = new byte[1024 * 1024];
      gz.write("{\"items\":[".getBytes(StandardCharsets.US_ASCII));
      Arrays.fill(zeros, (byte) ' ');
      for (int i = 0; i < 64; i++) {
        gz.write(zeros);
      }
      gz.write("]}".getBytes(StandardCharsets.US_ASCII));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return new Reply(
        200,
        Map.of("Content-Type", "application/json", "Content-Encoding", "gzip"),
        packed.toByteArray(),
        0,
        null);
  }

  /** One byte at a time, far slower than any timeout allows: never a whole answer in time. */
  private static void slowDrip(HttpServerExchange exchange) throws Exception {
    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
    byte[] text = FULL_JSON.getBytes(StandardCharsets.US_ASCII);
    try (OutputStream out = exchange.getOutputStream()) {
      for (byte b : text) {
        out.write(b);
        out.flush();
        if (RELEASE.await(1, TimeUnit.SECONDS)) {
          return;
        }
      }
    } catch (java.io.IOException gone) {
      // The client gave up.
    }
  }

  /** Promises 1000 bytes, sends a valid-looking start, then closes the connection. */
  private static void cutShort(HttpServerExchange exchange) throws Exception {
    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
    exchange.getResponseHeaders().put(Headers.CONTENT_LENGTH, "1000");
    OutputStream out = exchange.getOutputStream();
    out.write("{\"items\":[{\"id\":\"a\"},".getBytes(StandardCharsets.US_ASCII));
    out.flush();
    exchange.getConnection().close();
  }
}
