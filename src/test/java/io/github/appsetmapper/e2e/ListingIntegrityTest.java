package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A paginated listing is one moment of the upstream: its pages are never mixed from the cache, and
 * its credentials never follow a next link to another origin.
 */
class ListingIntegrityTest {
  @Test
  void aCachedPaginatedListingIsFetchedWholeEveryTime(@TempDir Path dir) {
    String yaml =
        """
        name: pages
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request:
            url: "#{vars.up}/items"
            cache: {ttl: 10m, staleIfError: 1h}
          items: "$[*]"
          paginate: {linkHeader: next}
        parameters: {id: item.id}
        """;
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /items",
          r ->
              r.rawUri().contains("page=2")
                  ? Reply.json(200, "[{\"id\":2}]")
                  : Reply.json(200, "[{\"id\":1}]")
                      .withHeader("Link", "<" + stub.url() + "/items?page=2>; rel=\"next\""));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
        String expected = "{\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"2\"}]}}";
        assertThat(plugin.getparams("pages", "{}").body()).isEqualTo(expected);
        assertThat(plugin.getparams("pages", "{}").body()).isEqualTo(expected);
        // Both pages again: page 1 from the cache and page 2 fresh could lose a row that moved.
        assertThat(stub.calls()).isEqualTo(4);
      }
    }
  }

  @Test
  void credentialsNeverFollowANextLinkToAnotherOrigin(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        StubUpstream other = new StubUpstream()) {
      String yaml =
          """
          name: linked
          allowedHosts: ["127.0.0.1"]
          vars: {up: {default: "http://unset.invalid"}}
          secrets: {api: {env: API_TOKEN}}
          list:
            request:
              url: "#{vars.up}/items"
              auth: {bearer: {secret: api}}
            items: "$[*]"
            paginate: {linkHeader: next}
          parameters: {id: item.id}
          """;
      stub.on(
          "GET /items",
          Reply.json(200, "[{\"id\":1}]")
              .withHeader("Link", "<" + other.url() + "/items>; rel=\"next\""));
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir, Map.of("up", stub.url()), Map.of("API_TOKEN", "tok-abcdef"), yaml)) {
        Answer answer = plugin.getparams("linked", "{}");
        assertThat(answer.status()).isEqualTo(502);
        assertThat(answer.body())
            .isEqualTo(
                "{\"error\":\"mapping 'linked': list GET "
                    + stub.url()
                    + "/items: next page on another origin '"
                    + other.url()
                    + "' refused: the request carries credentials\"}");
        assertThat(other.calls()).isZero();
      }
    }
  }
}
