package io.github.appsetmapper.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The latency of a cache hit from each level, for the Redis benchmark (bench/redis). One caller,
 * one getparams at a time, each input asked once per measure:
 *
 * <ul>
 *   <li>miss: a getparams whose listing no level holds (a call to the upstream);
 *   <li>level 2: pod B asks for inputs pod A fetched (read from Redis, verified, decoded);
 *   <li>level 1: pod B asks for them again (its own copy, confirmed by a header read in Redis);
 *   <li>alone: a pod without Redis asks for inputs it fetched itself (its memory only).
 * </ul>
 *
 * Usage: LevelLatency TOKEN MAPPING COUNT URL_A URL_B URL_ALONE; prints "name p50 p99" lines (ms).
 */
public final class LevelLatency {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private LevelLatency() {}

  public static void main(String[] args) throws Exception {
    String token = args[0];
    String mapping = args[1];
    int count = Integer.parseInt(args[2]);
    String a = args[3];
    String b = args[4];
    String alone = args[5];
    String run = Long.toString(System.nanoTime(), 36);
    List<String> shared = inputs("l-" + run, count);
    List<String> own = inputs("o-" + run, count);
    List<String> cold = inputs("m-" + run, count);
    // Warm-up of the JIT on inputs no measure uses.
    for (String input : inputs("w-" + run, 200)) {
      call(a, token, mapping, input);
      call(b, token, mapping, input);
      call(alone, token, mapping, input);
    }
    warm(a, token, mapping, shared);
    warm(alone, token, mapping, own);
    report("miss (a 20 ms upstream call)", measure(b, token, mapping, cold));
    report("level 2: from Redis (another pod fetched it)", measure(b, token, mapping, shared));
    report("level 1: the pod's own copy, confirmed in Redis", measure(b, token, mapping, shared));
    report("alone: the pod's own copy, no Redis", measure(alone, token, mapping, own));
  }

  private static List<String> inputs(String prefix, int count) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(prefix + "-" + i);
    }
    return out;
  }

  private static void warm(String url, String token, String mapping, List<String> inputs)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(20);
    try {
      List<Future<Integer>> sent = new ArrayList<>();
      for (String input : inputs) {
        sent.add(pool.submit(() -> call(url, token, mapping, input)));
      }
      for (Future<Integer> status : sent) {
        if (status.get() != 200) {
          throw new IllegalStateException("warming answered " + status.get());
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static List<Long> measure(String url, String token, String mapping, List<String> inputs)
      throws Exception {
    List<Long> nanos = new ArrayList<>();
    for (String input : inputs) {
      long start = System.nanoTime();
      int status = call(url, token, mapping, input);
      nanos.add(System.nanoTime() - start);
      if (status != 200) {
        throw new IllegalStateException("answered " + status);
      }
    }
    return nanos;
  }

  private static void report(String name, List<Long> nanos) {
    List<Long> sorted = new ArrayList<>(nanos);
    Collections.sort(sorted);
    double p50 = sorted.get(sorted.size() / 2) / 1e6;
    double p99 = sorted.get(Math.min(sorted.size() - 1, (int) (sorted.size() * 0.99))) / 1e6;
    System.out.printf("%s|%.2f|%.2f%n", name, p50, p99);
  }

  private static int call(String url, String token, String mapping, String input) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create(url + "/mappings/" + mapping + "/api/v1/getparams.execute"))
            .timeout(Duration.ofSeconds(30))
            .header("Authorization", "Bearer " + token)
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "{\"applicationSetName\":\"bench\",\"input\":{\"parameters\":{\"key1\":\""
                        + input
                        + "\"}}}"))
            .build();
    return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
  }
}
