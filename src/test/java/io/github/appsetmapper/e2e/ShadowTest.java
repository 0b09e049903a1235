package io.github.appsetmapper.e2e;

import static io.github.appsetmapper.testing.ShadowServer.until;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.shadow.ShadowSettings;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.ShadowServer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shadow mode over real HTTP ({@code serve --shadow}): the live answer never changes, the candidate
 * shares the live call's upstream answers, a failing or hanging candidate never touches the live
 * answer, and the differences endpoint shows what the candidate would change.
 */
class ShadowTest {
  @TempDir Path dir;

  private static final String PULLS =
      "[{\"number\":1,\"title\":\"one\",\"draft\":false},"
          + "{\"number\":2,\"title\":\"two\",\"draft\":true},"
          + "{\"number\":3,\"title\":\"three\",\"draft\":false}]";

  private static final String LIVE =
      """
      name: pulls
      key: number
      vars: {up: {default: "http://unset.invalid"}}
      input:
        repo: {pattern: "[a-z]+", default: shop}
      list:
        request: {url: "#{vars.up}/repos/#{input.repo}/pulls"}
        items: "$[*]"
      parameters:
        number: item.number
        title: item.title
      """;

  /** Drafts dropped (row 2 removed) and title renamed as name... (row 1 and 3 changed). */
  private static final String TIGHTER =
      LIVE.replace("  items: \"$[*]\"\n", "  items: \"$[*]\"\nfilter: \"!item.draft\"\n");

  private static final String BODY =
      "{\"applicationSetName\":\"previews\",\"input\":{\"parameters\":{\"repo\":\"shop\"}}}";

  private static StubUpstream stub() {
    StubUpstream stub = new StubUpstream();
    stub.on("GET /repos/shop/pulls", Reply.json(200, PULLS));
    return stub;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> report(ShadowServer server, String mapping) {
    Answer answer =
        server.send(
            "GET",
            "/mappings/" + mapping + "/shadow",
            null,
            io.github.appsetmapper.testing.PluginServer.TOKEN);
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    try {
      return (Map<String, Object>) JsonCodec.read(answer.body());
    } catch (Exception e) {
      throw new AssertionError(answer.body(), e);
    }
  }

  @SuppressWarnings("unchecked")
  private static long runs(ShadowServer server, String mapping, String result) {
    Object n = ((Map<String, Object>) report(server, mapping).get("runs")).get(result);
    return n == null ? 0 : ((Number) n).longValue();
  }

  @Test
  void liveAnswersAreByteIdenticalWithAndWithoutAShadow() {
    try (StubUpstream stub = stub();
        ShadowServer plain =
            ShadowServer.start(dir.resolve("a"), Map.of("up", stub.url()), List.of(LIVE), null);
        ShadowServer shadowed =
            ShadowServer.start(
                dir.resolve("b"), Map.of("up", stub.url()), List.of(LIVE), List.of(TIGHTER))) {
      Answer without = plain.getparams("pulls", BODY);
      Answer with = shadowed.getparams("pulls", BODY);
      assertThat(without.status()).isEqualTo(200);
      assertThat(with.body()).isEqualTo(without.body());
      assertThat(with.status()).isEqualTo(without.status());
      assertThat(with.headers().get("content-type"))
          .isEqualTo(without.headers().get("content-type"));
      assertThat(without.body()).contains("\"number\":\"2\"");
      // The candidate ran, and would have removed a row: the live answer did not change.
      until("the candidate ran", () -> runs(shadowed, "pulls", "different") == 1);
      assertThat(shadowed.getparams("pulls", BODY).body()).isEqualTo(without.body());
    }
  }

  @Test
  void theCandidateSharesTheLiveCallsUpstreamAnswers() {
    try (StubUpstream stub = stub();
        ShadowServer server =
            ShadowServer.start(dir, Map.of("up", stub.url()), List.of(LIVE), List.of(TIGHTER))) {
      assertThat(server.getparams("pulls", BODY).status()).isEqualTo(200);
      until("the candidate ran", () -> runs(server, "pulls", "different") == 1);
      // One call for both: the live one; the candidate took its answer.
      assertThat(stub.calls()).isEqualTo(1);
      assertThat(server.shadow().sharedCalls()).isEqualTo(1);
      assertThat(server.shadow().madeCalls()).isZero();
    }
  }

  @Test
  void theDifferencesEndpointShowsWhatTheCandidateWouldChangeWithItsInput() {
    String renamed = TIGHTER.replace("  title: item.title\n", "  title: \"'#' + item.title\"\n");
    try (StubUpstream stub = stub();
        ShadowServer server =
            ShadowServer.start(dir, Map.of("up", stub.url()), List.of(LIVE), List.of(renamed))) {
      server.getparams("pulls", BODY);
      until("the candidate ran", () -> runs(server, "pulls", "different") == 1);
      Map<String, Object> report = report(server, "pulls");
      assertThat(report.get("mapping")).isEqualTo("pulls");
      List<?> differences = (List<?>) report.get("differences");
      assertThat(differences).hasSize(1);
      Map<?, ?> one = (Map<?, ?>) differences.get(0);
      assertThat(one.get("applicationSetName")).isEqualTo("previews");
      assertThat(one.get("input")).isEqualTo(Map.of("repo", "shop"));
      assertThat(one.get("before")).isEqualTo(Map.of("rows", 3));
      assertThat(one.get("after")).isEqualTo(Map.of("rows", 2));
      assertThat(one.get("counts")).isEqualTo(Map.of("added", 0, "removed", 1, "changed", 2));
      assertThat(one.get("removed")).isEqualTo(List.of(Map.of("number", "2", "title", "two")));
      assertThat(one.get("changedRows"))
          .isEqualTo(
              List.of(
                  Map.of(
                      "key",
                      Map.of("number", "1"),
                      "parameters",
                      List.of(Map.of("name", "title", "before", "one", "after", "#one"))),
                  Map.of(
                      "key",
                      Map.of("number", "3"),
                      "parameters",
                      List.of(Map.of("name", "title", "before", "three", "after", "#three")))));
      assertThat(server.metrics())
          .contains("appset_mapper_shadow_rows_total{change=\"removed\",mapping=\"pulls\"} 1.0")
          .contains("appset_mapper_shadow_rows_total{change=\"changed\",mapping=\"pulls\"} 2.0")
          .contains("appset_mapper_shadow_runs_total{mapping=\"pulls\",result=\"different\"} 1.0");
      // Behind the token, as every route but the probes.
      assertThat(server.send("GET", "/mappings/pulls/shadow", null, null).status()).isEqualTo(403);
      assertThat(server.send("GET", "/mappings/pulls/shadow", null, "wrong").status())
          .isEqualTo(403);
      assertThat(
              server
                  .send(
                      "GET",
                      "/mappings/nope/shadow",
                      null,
                      io.github.appsetmapper.testing.PluginServer.TOKEN)
                  .status())
          .isEqualTo(404);
    }
  }

  @Test
  void theDifferencesAreBoundedToTheNewest() {
    ShadowSettings keepTwo = new ShadowSettings(1, 64, 32L << 20, 2, 20, 20);
    try (StubUpstream stub = new StubUpstream()) {
      stub.otherwise(r -> Reply.json(200, PULLS));
      try (ShadowServer server =
          ShadowServer.start(
              dir, Map.of("up", stub.url()), List.of(LIVE), List.of(TIGHTER), keepTwo)) {
        for (String repo : List.of("a", "b", "c")) {
          server.getparams("pulls", BODY.replace("shop", repo));
          long done = 1 + List.of("a", "b", "c").indexOf(repo);
          until("run " + done, () -> runs(server, "pulls", "different") == done);
        }
        List<?> kept = (List<?>) report(server, "pulls").get("differences");
        assertThat(kept).hasSize(2);
        assertThat(((Map<?, ?>) kept.get(0)).get("input")).isEqualTo(Map.of("repo", "c"));
        assertThat(((Map<?, ?>) kept.get(1)).get("input")).isEqualTo(Map.of("repo", "b"));
      }
    }
  }

  @Test
  void aFailingCandidateNeverTouchesTheLiveAnswer() {
    String failing = LIVE.replace("/repos/#{input.repo}/pulls", "/broken/#{input.repo}");
    try (StubUpstream stub = stub()) {
      stub.on("GET /broken/shop", Reply.json(500, "{\"message\":\"boom\"}"));
      try (ShadowServer plain =
              ShadowServer.start(dir.resolve("a"), Map.of("up", stub.url()), List.of(LIVE), null);
          ShadowServer server =
              ShadowServer.start(
                  dir.resolve("b"), Map.of("up", stub.url()), List.of(LIVE), List.of(failing))) {
        String expected = plain.getparams("pulls", BODY).body();
        Answer live = server.getparams("pulls", BODY);
        assertThat(live.status()).isEqualTo(200);
        assertThat(live.body()).isEqualTo(expected);
        until("the candidate failed", () -> runs(server, "pulls", "failed") == 1);
        Map<?, ?> one = (Map<?, ?>) ((List<?>) report(server, "pulls").get("differences")).get(0);
        assertThat(((Map<?, ?>) one.get("after")).get("status")).isEqualTo(502);
        assertThat((String) ((Map<?, ?>) one.get("after")).get("error")).contains("answered 500");
        assertThat(server.getparams("pulls", BODY).body()).isEqualTo(expected);
      }
    }
  }

  @Test
  void aHangingCandidateNeverTouchesTheLiveAnswer() throws Exception {
    String hanging = LIVE.replace("/repos/#{input.repo}/pulls", "/slow/#{input.repo}");
    CountDownLatch release = new CountDownLatch(1);
    try (StubUpstream stub = stub()) {
      stub.on(
          "GET /slow/shop",
          r -> {
            try {
              release.await(120, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            return Reply.json(200, "[]");
          });
      try (ShadowServer server =
          ShadowServer.start(dir, Map.of("up", stub.url()), List.of(LIVE), List.of(hanging))) {
        Answer first = server.getparams("pulls", BODY);
        assertThat(first.status()).isEqualTo(200);
        // The candidate's call is at the upstream, held there: the candidate hangs.
        until(
            "the candidate's call arrived",
            () -> stub.received().stream().anyMatch(r -> r.rawUri().startsWith("/slow/")));
        // While it hangs, live answers keep coming, whole and unchanged.
        for (int i = 0; i < 5; i++) {
          Answer again = server.getparams("pulls", BODY);
          assertThat(again.status()).isEqualTo(200);
          assertThat(again.body()).isEqualTo(first.body());
        }
        assertThat(release.getCount()).as("the candidate still hangs").isEqualTo(1);
        release.countDown();
        until("the candidate finished", () -> runs(server, "pulls", "different") >= 1);
      } finally {
        release.countDown();
      }
    }
  }

  @Test
  void eachCandidateIsServedOnItsOwnRouteWithTheSameChecksAsGetparams() {
    try (StubUpstream stub = stub();
        ShadowServer server =
            ShadowServer.start(dir, Map.of("up", stub.url()), List.of(LIVE), List.of(TIGHTER))) {
      String route = "/mappings/pulls/shadow/api/v1/getparams.execute";
      Answer answer =
          server.send("POST", route, BODY, io.github.appsetmapper.testing.PluginServer.TOKEN);
      assertThat(answer.status()).as(answer.body()).isEqualTo(200);
      assertThat(answer.body())
          .isEqualTo(
              "{\"output\":{\"parameters\":[{\"number\":\"1\",\"title\":\"one\"},{\"number\":\"3\",\"title\":\"three\"}]}}");
      assertThat(server.send("POST", route, BODY, null).status()).isEqualTo(403);
      Answer bad =
          server.send(
              "POST",
              route,
              "{\"input\":{\"parameters\":{\"repo\":\"../x\"}}}",
              io.github.appsetmapper.testing.PluginServer.TOKEN);
      Answer badLive =
          server.getparams("pulls", "{\"input\":{\"parameters\":{\"repo\":\"../x\"}}}");
      assertThat(bad.status()).isEqualTo(400);
      assertThat(bad.body()).isEqualTo(badLive.body());
      assertThat(
              server
                  .send(
                      "POST", route, "not json", io.github.appsetmapper.testing.PluginServer.TOKEN)
                  .status())
          .isEqualTo(400);
      assertThat(
              server
                  .send(
                      "POST",
                      "/mappings/other/shadow/api/v1/getparams.execute",
                      BODY,
                      io.github.appsetmapper.testing.PluginServer.TOKEN)
                  .status())
          .isEqualTo(404);
    }
  }

  @Test
  void aCandidateThatDoesNotLoadIsReportedAndTheLiveMappingsServe() {
    try (StubUpstream stub = stub();
        ShadowServer server =
            ShadowServer.start(
                dir,
                Map.of("up", stub.url()),
                List.of(LIVE),
                List.of(TIGHTER.replace("filter:", "filtr:")))) {
      assertThat(server.getparams("pulls", BODY).status()).isEqualTo(200);
      Map<String, Object> report = report(server, "pulls");
      assertThat(report.get("candidate")).isNull();
      assertThat((List<?>) report.get("loadProblems"))
          .singleElement()
          .asString()
          .contains("unknown key 'filtr'");
      assertThat(server.metrics())
          .contains("appset_mapper_shadow_candidates{state=\"failed\"} 1.0")
          .contains("appset_mapper_shadow_candidates{state=\"loaded\"} 0.0");
    }
  }

  @Test
  void aCandidateIsSkippedWhileTheUpstreamsRateLimitHeadroomIsLow() {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /repos/shop/pulls",
          Reply.json(200, PULLS)
              .withHeader("X-RateLimit-Limit", "5000")
              .withHeader("X-RateLimit-Remaining", "12")
              .withHeader(
                  "X-RateLimit-Reset", String.valueOf(System.currentTimeMillis() / 1000 + 3600)));
      try (ShadowServer server =
          ShadowServer.start(dir, Map.of("up", stub.url()), List.of(LIVE), List.of(TIGHTER))) {
        assertThat(server.getparams("pulls", BODY).status()).isEqualTo(200);
        until("the run was skipped", () -> runs(server, "pulls", "skipped_headroom") == 1);
        assertThat(runs(server, "pulls", "different")).isZero();
        assertThat(stub.calls()).isEqualTo(1);
      }
    }
  }

  @Test
  void inputsAndAnswersAreRedactedInTheDifferences() {
    String withSecret =
        LIVE.replace("vars:", "secrets: {tok: {env: TOK}}\nvars:")
            .replace(
                "  request: {url: \"#{vars.up}/repos/#{input.repo}/pulls\"}",
                "  request:\n    url: \"#{vars.up}/repos/#{input.repo}/pulls\"\n    auth: {bearer: {secret: tok}}")
            .replace("pattern: \"[a-z]+\"", "pattern: \"[a-z0-9]+\"");
    try (StubUpstream stub = new StubUpstream()) {
      stub.otherwise(
          // An answer carrying the secret is refused (502) before any diff sees it: the input is
          // what can carry one into the differences.
          r -> Reply.json(200, "[{\"number\":1,\"title\":\"plain\",\"draft\":true}]"));
      try (ShadowServer server =
          ShadowServer.startWithEnv(
              dir,
              Map.of("up", stub.url()),
              Map.of("TOK", "s3cr3tvalue9"),
              List.of(withSecret),
              List.of(
                  withSecret.replace(
                      "  items: \"$[*]\"\n", "  items: \"$[*]\"\nfilter: \"!item.draft\"\n")))) {
        Answer live =
            server.getparams("pulls", "{\"input\":{\"parameters\":{\"repo\":\"s3cr3tvalue9\"}}}");
        assertThat(live.status()).isEqualTo(200);
        until("the candidate ran", () -> runs(server, "pulls", "different") == 1);
        String body =
            server
                .send(
                    "GET",
                    "/mappings/pulls/shadow",
                    null,
                    io.github.appsetmapper.testing.PluginServer.TOKEN)
                .body();
        assertThat(body).doesNotContain("s3cr3tvalue9").contains("removed");
      }
    }
  }

  @Test
  void theCandidateWritesNoCacheEntriesAndTakesTheLiveCachedAnswers() {
    String cached = LIVE.replace("/pulls\"}", "/pulls\", cache: {ttl: 10m}}");
    assertThat(cached).contains("cache: {ttl: 10m}");
    try (StubUpstream stub = stub();
        ShadowServer server =
            ShadowServer.start(
                dir,
                Map.of("up", stub.url()),
                List.of(cached),
                List.of(
                    cached.replace(
                        "  items: \"$[*]\"\n", "  items: \"$[*]\"\nfilter: \"!item.draft\"\n")))) {
      server.getparams("pulls", BODY);
      until("the first run", () -> runs(server, "pulls", "different") == 1);
      // The second live answer comes from the live cache: the candidate still gets the answer.
      server.getparams("pulls", BODY);
      until("the second run", () -> runs(server, "pulls", "different") == 2);
      assertThat(stub.calls()).isEqualTo(1);
      assertThat(server.shadow().madeCalls()).isZero();
      assertThat(server.shadow().sharedCalls()).isEqualTo(2);
      assertThat(server.shadow().cachedEntries()).isZero();
    }
  }
}
