package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The version, date and escape functions and {@code list.entries} as a mapping author uses them,
 * over real HTTP; "now" is the request's time, from the server's clock (fixed here).
 */
class AuthoringFunctionsTest {
  @TempDir Path dir;

  private static final Clock DECEMBER_FIRST =
      Clock.fixed(Instant.parse("2026-12-01T12:00:00Z"), ZoneOffset.UTC);

  private static final String RECENT =
      """
      name: recent
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/repos"}
        items: "$[*]"
      # Updated in the last 30 days, at the request's time.
      filter: "#daysSince(item.pushed_at) <= 30"
      sortBy: "#epochSeconds(item.pushed_at)"
      sortOrder: desc
      parameters:
        name: item.name
        age: "#daysSince(item.pushed_at)"
        day: "#dateFormat(item.pushed_at, 'yyyy-MM-dd')"
        newest: "#semverSort(item.tags).isEmpty() ? null : #semverSort(item.tags)[#semverSort(item.tags).size() - 1]"
        newerThan1_9: "item.tags.?[#semverCompare(#this, '1.9.0') > 0]"
        link: "'https://ci.example.com/search?q=' + #urlEncode(item.name + ' & more')"
        at: "#now()"
      """;

  private static final String ENV =
      """
      name: env
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/apps"}
        items: "$.apps"
        entries: "$"
      parameters:
        app: item.key
        replicas: item.value.replicas
        vars: "#entries(item.value.env).![key + '=' + value]"
      """;

  @Test
  void recentlyUpdatedWithTheirNewestVersion() {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /repos",
          Reply.json(
              200,
              """
              [{"name": "web", "pushed_at": "2026-11-30T08:00:00Z", "tags": ["1.9.0", "1.10.0", "latest"]},
               {"name": "old", "pushed_at": "2026-10-01T08:00:00Z", "tags": ["2.0.0"]},
               {"name": "api", "pushed_at": "2026-11-02T12:00:00+01:00", "tags": ["v0.1.0-rc.1", "v0.1.0"]}]
              """));
      try (PluginServer plugin =
          PluginServer.withClock(dir, Map.of("up", stub.url()), DECEMBER_FIRST, RECENT)) {
        Answer answer = plugin.getparams("recent", "{}");
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.body())
            .isEqualTo(
                "{\"output\":{\"parameters\":["
                    + "{\"name\":\"web\",\"age\":\"1\",\"day\":\"2026-11-30\",\"newest\":\"1.10.0\","
                    + "\"newerThan1_9\":[\"1.10.0\"],"
                    + "\"link\":\"https://ci.example.com/search?q=web%20%26%20more\","
                    + "\"at\":\"2026-12-01T12:00:00Z\"},"
                    + "{\"name\":\"api\",\"age\":\"29\",\"day\":\"2026-11-02\",\"newest\":\"v0.1.0\","
                    + "\"newerThan1_9\":[],"
                    + "\"link\":\"https://ci.example.com/search?q=api%20%26%20more\","
                    + "\"at\":\"2026-12-01T12:00:00Z\"}]}}");
      }
    }
  }

  @Test
  void aDateThatIsNoDateFailsTheAnswerNamingIt() {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /repos", Reply.json(200, "[{\"name\": \"web\", \"pushed_at\": \"yesterday\"}]"));
      try (PluginServer plugin =
          PluginServer.withClock(dir, Map.of("up", stub.url()), DECEMBER_FIRST, RECENT)) {
        Answer answer = plugin.getparams("recent", "{}");
        assertThat(answer.status()).isEqualTo(500);
        assertThat(answer.body())
            .contains("filter '#daysSince(item.pushed_at) <= 30' failed on row 0: ")
            .contains(
                "'yesterday' is not an RFC 3339 date-time (2024-05-02T16:40:11Z,"
                    + " 2024-05-02T18:40:11+02:00, or 2024-05-02)");
      }
    }
  }

  @Test
  void aMapBecomesRowsWithItsKeys() {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /apps",
          Reply.json(
              200,
              """
              {"apps": {"web": {"replicas": 3, "env": {"TIER": "gold", "REGION": "eu"}},
                        "api": {"replicas": 1, "env": {}}}}
              """));
      try (PluginServer plugin =
          PluginServer.withClock(dir, Map.of("up", stub.url()), DECEMBER_FIRST, ENV)) {
        Answer answer = plugin.getparams("env", "{}");
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.body())
            .isEqualTo(
                "{\"output\":{\"parameters\":["
                    + "{\"app\":\"web\",\"replicas\":\"3\",\"vars\":[\"TIER=gold\",\"REGION=eu\"]},"
                    + "{\"app\":\"api\",\"replicas\":\"1\",\"vars\":[]}]}}");
      }
    }
  }

  @Test
  void entriesOfAnErrorEnvelopeOrAListAreA502NeverRows() {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /apps", Reply.json(200, "{\"error\": \"shard 2 unavailable\"}"));
      try (PluginServer plugin =
          PluginServer.withClock(dir, Map.of("up", stub.url()), DECEMBER_FIRST, ENV)) {
        Answer missing = plugin.getparams("env", "{}");
        assertThat(missing.status()).isEqualTo(502);
        assertThat(missing.body())
            .isEqualTo(
                "{\"error\":\"mapping 'env': list GET "
                    + stub.url()
                    + "/apps: items '$['apps']': found nothing\"}");
        stub.on("GET /apps", Reply.json(200, "{\"apps\": [{\"web\": {}}]}"));
        Answer list = plugin.getparams("env", "{}");
        assertThat(list.status()).isEqualTo(502);
        assertThat(list.body())
            .isEqualTo(
                "{\"error\":\"mapping 'env': list GET "
                    + stub.url()
                    + "/apps: items '$['apps']': entries needs an object here, got a list\"}");
        stub.on("GET /apps", Reply.json(200, "{\"apps\": {}}"));
        assertThat(plugin.getparams("env", "{}").body())
            .isEqualTo("{\"output\":{\"parameters\":[]}}");
      }
    }
  }
}
