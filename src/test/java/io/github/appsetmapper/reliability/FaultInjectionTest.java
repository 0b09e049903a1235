package io.github.appsetmapper.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.LogCapture;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.SecretForms;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import io.undertow.util.HttpString;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An upstream that, at random (seeded), fails in every way an upstream fails: 5xx, reset
 * connections, timeouts, truncated or malformed JSON, HTML instead of JSON, dripping and huge
 * bodies, and answers that look whole and are not: a 202 or 206 with part of the rows, a key twice
 * (the second one wrong), a number beyond the bounds. Over a thousand getparams, every answer must
 * be exactly the right parameters or a non-2xx with a one-line error; never a 2xx with rows
 * missing, never a hang, never a secret.
 */
class FaultInjectionTest {
  /** Longer than any quote a message cuts: a prefix cut before redaction would show. */
  private static final String SECRET = "fault-run-secret-4be1c9-" + "0123456789abcdef".repeat(8);

  private static final int CALLS = 1000;
  private static final String MAPPING =
      """
      name: faulty
      input:
        team: {required: true}
      vars: {up: {default: "http://unset.invalid"}}
      secrets: {api: {env: API_TOKEN}}
      defaults:
        timeout: 400ms
        auth: {bearer: {secret: api}}
      concurrency: 4
      list:
        request: {url: "#{vars.up}/teams/#{input.team}/repos"}
        items: "$.repos[*]"
      enrich:
        owner:
          request: {url: "#{vars.up}/repos/#{item.name}/owner"}
          select: "$.login"
      parameters:
        repo: item.name
        owner: owner
      """;

  enum Fault {
    NONE,
    STATUS_500,
    STATUS_503,
    RESET,
    TIMEOUT,
    TRUNCATED,
    MALFORMED,
    HTML,
    DRIP,
    HUGE,
    ACCEPTED,
    PARTIAL,
    DUPLICATE_KEY,
    HUGE_NUMBER,
    /** The bearer token sent back as a key given twice: the error quotes the key. */
    SECRET_KEY_TWICE
  }

  enum Outcome {
    CORRECT,
    ERROR_4XX,
    ERROR_500,
    ERROR_502,
    ERROR_504,
    WRONG
  }

  @Test
  void everyAnswerIsRightOrAnErrorNeverAnEmptyOrPartialSuccess(@TempDir Path dir) throws Exception {
    Random random = new Random(20261129);
    Map<Fault, AtomicLong> injected = new EnumMap<>(Fault.class);
    for (Fault f : Fault.values()) {
      injected.put(f, new AtomicLong());
    }
    try (LogCapture logs = new LogCapture();
        StubUpstream stub = new StubUpstream()) {
      stub.otherwise(
          r -> {
            Fault fault;
            synchronized (random) {
              // Most calls succeed, so that most answers are whole and the check has teeth.
              fault =
                  random.nextInt(100) < 88
                      ? Fault.NONE
                      : Fault.values()[1 + random.nextInt(Fault.values().length - 1)];
            }
            injected.get(fault).incrementAndGet();
            String body =
                r.rawUri().endsWith("/repos")
                    ? "{\"repos\":[{\"name\":\"a\"},{\"name\":\"b\"},{\"name\":\"c\"}]}"
                    : "{\"login\":\"owner-of-" + r.rawUri().split("/")[2] + "\"}";
            return faulty(fault, body);
          });
      ExecutorService callers = Executors.newFixedThreadPool(8);
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir, Map.of("up", stub.url()), Map.of("API_TOKEN", SECRET), MAPPING)) {
        String expected =
            "{\"output\":{\"parameters\":[{\"repo\":\"a\",\"owner\":\"owner-of-a\"},"
                + "{\"repo\":\"b\",\"owner\":\"owner-of-b\"},{\"repo\":\"c\",\"owner\":\"owner-of-c\"}]}}";
        List<Future<Outcome>> results = new ArrayList<>();
        long[] slowest = {0};
        for (int i = 0; i < CALLS; i++) {
          String team = "t" + (i % 50);
          results.add(
              callers.submit(
                  () -> {
                    long started = System.nanoTime();
                    Answer answer =
                        plugin.getparams(
                            "faulty", "{\"input\":{\"parameters\":{\"team\":\"" + team + "\"}}}");
                    long millis = (System.nanoTime() - started) / 1_000_000;
                    synchronized (slowest) {
                      slowest[0] = Math.max(slowest[0], millis);
                    }
                    assertThat(SecretForms.leaks(answer.body(), SECRET)).isEmpty();
                    return classify(answer, expected);
                  }));
        }
        Map<Outcome, Integer> outcomes = new EnumMap<>(Outcome.class);
        for (Future<Outcome> result : results) {
          outcomes.merge(result.get(), 1, Integer::sum);
        }
        System.out.println(
            "fault injection: injected "
                + injected
                + "; outcomes "
                + outcomes
                + "; slowest "
                + slowest[0]
                + " ms");
        assertThat(outcomes.getOrDefault(Outcome.WRONG, 0))
            .as("2xx answers that were not exactly right")
            .isZero();
        assertThat(outcomes.getOrDefault(Outcome.CORRECT, 0))
            .as("whole answers")
            .isGreaterThan(CALLS / 4);
        assertThat(outcomes.getOrDefault(Outcome.ERROR_502, 0)).isPositive();
        assertThat(outcomes.getOrDefault(Outcome.ERROR_504, 0)).isPositive();
        // A list timeout then an enrich timeout, 400 ms each; the bound only catches a hang (the
        // machine may be busy with other builds).
        assertThat(slowest[0]).as("no hang").isLessThan(30_000);
        for (Fault fault : Fault.values()) {
          assertThat(injected.get(fault).get()).as("fault %s injected", fault).isPositive();
        }
      } finally {
        callers.shutdownNow();
      }
      assertThat(SecretForms.leaks(String.join("\n", logs.lines()), SECRET)).isEmpty();
    }
  }

  private static Outcome classify(Answer answer, String expected) {
    if (answer.status() == 200) {
      return answer.body().equals(expected) ? Outcome.CORRECT : Outcome.WRONG;
    }
    assertThat(answer.body()).matches("\\{\"error\":\"[^\\n]+\"\\}");
    return switch (answer.status()) {
      case 502 -> Outcome.ERROR_502;
      case 504 -> Outcome.ERROR_504;
      case 500 -> Outcome.ERROR_500;
      default ->
          answer.status() >= 400 && answer.status() < 500 ? Outcome.ERROR_4XX : Outcome.WRONG;
    };
  }

  private static Reply faulty(Fault fault, String body) {
    return switch (fault) {
      case NONE -> Reply.json(200, body);
      case STATUS_500 -> Reply.json(500, "{\"message\":\"boom\"}");
      case STATUS_503 -> Reply.json(503, "<html>maintenance</html>");
      case RESET -> Reply.custom(exchange -> exchange.getConnection().close());
      case TIMEOUT -> Reply.json(200, body).delayed(700);
      case TRUNCATED ->
          Reply.custom(
              exchange -> {
                byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                exchange.setStatusCode(200);
                exchange
                    .getResponseHeaders()
                    .put(new HttpString("Content-Length"), bytes.length + 20);
                OutputStream out = exchange.getOutputStream();
                out.write(bytes, 0, bytes.length / 2);
                out.flush();
                exchange.getConnection().close();
              });
      case MALFORMED -> Reply.json(200, body.substring(0, body.length() - 3) + ",]");
      case HTML ->
          new Reply(
              200,
              Map.of("Content-Type", "text/html"),
              "<html><body>Sign in</body></html>".getBytes(StandardCharsets.UTF_8),
              0,
              null);
      case DRIP ->
          Reply.custom(
              exchange -> {
                exchange.setStatusCode(200);
                OutputStream out = exchange.getOutputStream();
                for (int i = 0; i < 20; i++) {
                  out.write(' ');
                  out.flush();
                  Thread.sleep(50);
                }
                out.write(body.getBytes(StandardCharsets.UTF_8));
                exchange.endExchange();
              });
      case HUGE -> Reply.json(200, "{\"repos\":[\"" + "x".repeat(11 * 1024 * 1024) + "\"]}");
      case ACCEPTED -> Reply.json(202, fewer(body));
      case PARTIAL -> Reply.json(206, fewer(body));
      case DUPLICATE_KEY -> Reply.json(200, twice(body));
      case HUGE_NUMBER -> Reply.json(200, "{\"n\":1e999999999," + body.substring(1));
      case SECRET_KEY_TWICE ->
          Reply.json(200, "{\"" + SECRET + "\":1,\"" + SECRET + "\":2," + body.substring(1));
    };
  }

  /** The body with its list cut to its first element, or as it is. */
  private static String fewer(String body) {
    int cut = body.indexOf("},{");
    return cut < 0 ? body : body.substring(0, cut + 1) + "]}";
  }

  /** The body with its first key again, last, holding something else: taken, it is wrong. */
  private static String twice(String body) {
    String key = body.substring(1, body.indexOf(':'));
    String other = body.charAt(body.indexOf(':') + 1) == '[' ? "[]" : "\"intruder\"";
    return body.substring(0, body.length() - 1) + "," + key + ":" + other + "}";
  }
}
