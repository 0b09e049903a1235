package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An outsider's finds: a next URL holding a character a URI cannot hold ({@code |}, a space, a
 * stray {@code %}) is a next page, and the {@code next} mode follows it encoded; HAL and JSON:API
 * link objects end their listing where the link is left out or null; Sentry's {@code rel="next";
 * results="false"} is no next page.
 */
class NextPageOutsiderFindsTest {
  private static final String YAML = BodyPageSignalsTest.YAML;
  private static final String TWO = "{\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"2\"}]}}";
  private static final String ONE = "{\"output\":{\"parameters\":[{\"id\":\"1\"}]}}";

  private static String json(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  @Test
  void aNextUrlWithCharactersAUriCannotHoldIsANextPageAndNextFollowsIt(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream()) {
      // Each next reference (@U: the stub's URL, @N: the listing's name); page 2 is asked
      // for by at=p2. The value: what the upstream must receive of the odd part.
      Map<String, String> forms = new LinkedHashMap<>();
      forms.put("/@N/items?filter=a|b&at=p2", "filter=a%7Cb");
      forms.put("@U/@N/items?q=100%&at=p2", "q=100%25");
      forms.put("/@N/items?search=foo bar&at=p2", "search=foo%20bar");
      forms.put("/@N/items?filter={\"a\":1}&at=p2", "filter=%7B%22a%22:1%7D");
      forms.put("?x=a^b&at=p2", "x=a%5Eb");
      forms.put("items?x=a\\b&at=p2", "x=a%5Cb");
      forms.put("/@N/items?x=<a>&at=p2", "x=%3Ca%3E");
      forms.put("/@N/items?page[number]=2&ok=%41&at=p2", "page%5Bnumber%5D=2&ok=%41");
      List<String> fields = List.of("next", "next_page_url");
      List<String> yamls = new ArrayList<>();
      Map<String, String> expected = new LinkedHashMap<>();
      int i = 0;
      for (Map.Entry<String, String> form : forms.entrySet()) {
        String field = fields.get(i % fields.size());
        String name = "odd" + i++;
        expected.put(name, field + "|" + form.getValue());
        String first =
            "{\"data\":[{\"id\":1}],\""
                + field
                + "\":"
                + json(form.getKey().replace("@U", stub.url()).replace("@N", name))
                + "}";
        Reply page2 = Reply.json(200, "{\"data\":[{\"id\":2}],\"" + field + "\":null}");
        stub.on(
            "GET /" + name + "/items",
            r -> r.rawUri().contains("at=p2") ? page2 : Reply.json(200, first));
        yamls.add(YAML.formatted(name, name + "/items", "$.data[*]", ""));
        yamls.add(
            YAML.formatted(
                name + "-paged",
                name + "/items",
                "$.data[*]",
                "paginate: {next: \"$." + field + "\"}"));
      }
      // The Link header too, in linkHeader mode; and a host check kept for an encoded link.
      stub.on(
          "GET /link/items",
          r ->
              r.rawUri().contains("at=p2")
                  ? Reply.json(200, "{\"data\":[{\"id\":2}]}")
                  : Reply.json(200, "{\"data\":[{\"id\":1}]}")
                      .withHeader("Link", "</link/items?f=a|b&at=p2>; rel=\"next\""));
      yamls.add(YAML.formatted("link", "link/items", "$.data[*]", ""));
      yamls.add(
          YAML.formatted("link-paged", "link/items", "$.data[*]", "paginate: {linkHeader: next}"));
      stub.on(
          "GET /away/items",
          Reply.json(
              200, "{\"data\":[{\"id\":1}],\"next\":\"http://other.invalid/items?f=a|b&at=p2\"}"));
      yamls.add(YAML.formatted("away", "away/items", "$.data[*]", "paginate: {next: \"$.next\"}"));
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir, Map.of("up", stub.url()), Map.of(), yamls.toArray(String[]::new))) {
        expected.forEach(
            (name, what) -> {
              String field = what.substring(0, what.indexOf('|'));
              String sent = what.substring(what.indexOf('|') + 1);
              plugin
                  .getparams(name, "{}")
                  .expect(
                      502,
                      "its body has a next URL at $." + field,
                      "add 'paginate: {next: \\\"$." + field + "\\\"}'");
              assertThat(plugin.getparams(name + "-paged", "{}").expect(200).body())
                  .as(name)
                  .isEqualTo(TWO);
              assertThat(stub.received())
                  .as(name + " sent " + sent)
                  .anyMatch(
                      r ->
                          r.rawUri().startsWith("/" + name + "/items?")
                              && r.rawUri().contains(sent));
            });
        plugin.getparams("link", "{}").expect(502, "its Link header has a rel=\\\"next\\\" link");
        assertThat(plugin.getparams("link-paged", "{}").expect(200).body()).isEqualTo(TWO);
        assertThat(stub.received()).anyMatch(r -> r.rawUri().equals("/link/items?f=a%7Cb&at=p2"));
        plugin
            .getparams("away", "{}")
            .expect(502, "next page on another origin 'http://other.invalid' refused");
      }
    }
  }

  @Test
  void halAndJsonApiLinkObjectsEndWhereTheLinkIsLeftOutOrNull(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream()) {
      // name -> {page 1's links, page 2's links}
      Map<String, String[]> apis = new LinkedHashMap<>();
      apis.put(
          "hal",
          new String[] {
            "\"_links\":{\"next\":{\"href\":\"/hal/items?at=p2\"}}",
            "\"_links\":{\"self\":{\"href\":\"/hal/items?at=p2\"}}"
          });
      apis.put(
          "halbare",
          new String[] {
            "\"_links\":{\"next\":{\"href\":\"/halbare/items?at=p2\"}}", "\"page\":{}"
          });
      apis.put(
          "jsonapi",
          new String[] {
            "\"links\":{\"next\":{\"href\":\"/jsonapi/items?at=p2\"}}", "\"links\":{\"next\":null}"
          });
      List<String> yamls = new ArrayList<>();
      apis.forEach(
          (name, links) -> {
            stub.on(
                "GET /" + name + "/items",
                r ->
                    Reply.json(
                        200,
                        r.rawUri().contains("at=p2")
                            ? "{\"data\":[{\"id\":2}]," + links[1] + "}"
                            : "{\"data\":[{\"id\":1}]," + links[0] + "}"));
            String path = name.equals("jsonapi") ? "$.links.next.href" : "$._links.next.href";
            yamls.add(
                YAML.formatted(
                    name, name + "/items", "$.data[*]", "paginate: {next: \"" + path + "\"}"));
          });
      // A typo in the path: the page names a next page the mode does not read, a 502.
      yamls.add(
          YAML.formatted(
              "typo", "hal/items", "$.data[*]", "paginate: {next: \"$._links.nxt.href\"}"));
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir, Map.of("up", stub.url()), Map.of(), yamls.toArray(String[]::new))) {
        for (String name : apis.keySet()) {
          assertThat(plugin.getparams(name, "{}").expect(200).body()).as(name).isEqualTo(TWO);
        }
        plugin
            .getparams("typo", "{}")
            .expect(
                502,
                "the listing ends at page 1 (no next link) while its body has a next URL at"
                    + " $._links.next.href");
      }
    }
  }

  @Test
  void sentrysResultsFalseIsNoNextPage(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream()) {
      String url = stub.url();
      String last =
          "<"
              + url
              + "/sentry/items?cursor=0:0:1>; rel=\"previous\"; results=\"true\"; cursor=\"0:0:1\", <"
              + url
              + "/sentry/items?cursor=0:200:0>; rel=\"next\"; results=\"false\"; cursor=\"0:200:0\"";
      String more =
          "<"
              + url
              + "/sentry/items?cursor=0:0:1>; rel=\"previous\"; results=\"false\"; cursor=\"0:0:1\", <"
              + url
              + "/sentry/items?cursor=0:100:0&at=p2>; rel=\"next\"; results=\"true\";"
              + " cursor=\"0:100:0\"";
      stub.on(
          "GET /sentry/items",
          r ->
              r.rawUri().contains("at=p2")
                  ? Reply.json(200, "{\"data\":[{\"id\":2}]}").withHeader("Link", last)
                  : Reply.json(200, "{\"data\":[{\"id\":1}]}").withHeader("Link", more));
      stub.on(
          "GET /alone/items",
          Reply.json(200, "{\"data\":[{\"id\":1}]}")
              .withHeader("Link", last.replace("/sentry/", "/alone/")));
      stub.on(
          "GET /cursor/items",
          r ->
              r.rawUri().contains("c=A")
                  ? Reply.json(200, "{\"data\":[{\"id\":2}],\"cursor\":null}")
                      .withHeader("Link", last.replace("/sentry/", "/cursor/"))
                  : Reply.json(200, "{\"data\":[{\"id\":1}],\"cursor\":\"A\"}"));
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir,
              Map.of("up", url),
              Map.of(),
              YAML.formatted("alone", "alone/items", "$.data[*]", ""),
              YAML.formatted("more", "sentry/items", "$.data[*]", ""),
              YAML.formatted("sentry", "sentry/items", "$.data[*]", "paginate: {linkHeader: next}"),
              YAML.formatted(
                  "cursor",
                  "cursor/items",
                  "$.data[*]",
                  "paginate: {cursor: {param: c, from: \"$.cursor\"}}"))) {
        assertThat(plugin.getparams("alone", "{}").expect(200).body()).isEqualTo(ONE);
        plugin.getparams("more", "{}").expect(502, "its Link header has a rel=\\\"next\\\" link");
        assertThat(plugin.getparams("sentry", "{}").expect(200).body()).isEqualTo(TWO);
        assertThat(plugin.getparams("cursor", "{}").expect(200).body()).isEqualTo(TWO);
      }
    }
  }
}
