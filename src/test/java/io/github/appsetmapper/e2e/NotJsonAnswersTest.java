package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An upstream that answers 200 with a page that is not JSON (a sign-in page, a proxy's error page)
 * where the mapping reads JSON: every reader (JsonPath's {@code items}, {@code select}, {@code
 * next}, {@code cursor.from}; SpEL's {@code value}, {@code failWhen}, {@code until}, a {@code let}
 * over a whole-body enrich) fails with one 502 line naming the call, the status, the Content-Type
 * and the page's first characters, never "Property 'digest' cannot be found on object of type
 * 'text'" (a 500). A mapping that reads such a body as text on purpose keeps working.
 */
class NotJsonAnswersTest {
  private static final String PAGE = "<!DOCTYPE html>\n<html><head><title>Sign in</title></head>";

  /** What the 502 says of {@link #PAGE}: its first characters on one line. */
  private static final String SAID =
      "answered 200 with text/html (not JSON): '<!DOCTYPE html> <html><head><title>Sign in</title></head>'";

  private static Reply signIn() {
    return Reply.json(200, PAGE).withHeader("Content-Type", "text/html; charset=utf-8");
  }

  private static String enrich(String name, String step, String after) {
    return """
        name: %s
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/rows"}
          items: "$[*]"
        enrich:
          found:
            request: %s
        %s
        """
        .formatted(name, step.replace("\n", "\n    "), after);
  }

  private static String listing(String name, String list) {
    return """
        name: %s
        vars: {up: {default: "http://unset.invalid"}}
        list:
          %s
        parameters: {id: item.id}
        """
        .formatted(name, list.replace("\n", "\n  "));
  }

  @Test
  void everyReaderOfJsonNamesThePageNotAnExpressionOnText(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir,
                Map.of("up", stub.url()),
                Map.of(),
                enrich(
                    "valued",
                    "{url: \"#{vars.up}/detail\"}\nvalue: response.body.digest",
                    "parameters: {d: found}"),
                enrich(
                    "selected",
                    "{url: \"#{vars.up}/detail\"}\nselect: \"$.digest\"",
                    "parameters: {d: found}"),
                enrich(
                    "checked",
                    "{url: \"#{vars.up}/detail\", failWhen: \"response.body.errors != null\"}\n"
                        + "value: \"response.status\"",
                    "parameters: {d: found}"),
                enrich(
                    "whole",
                    "{url: \"#{vars.up}/detail\"}",
                    "let: {digest: found.digest}\nparameters: {d: digest}"),
                listing("listed", "request: {url: \"#{vars.up}/detail\"}\nitems: \"$[*]\""),
                listing(
                    "nexted",
                    "request: {url: \"#{vars.up}/first\"}\nitems: \"$.rows[*]\"\n"
                        + "paginate: {next: \"$.next\"}"),
                listing(
                    "cursored",
                    "request: {url: \"#{vars.up}/first\"}\nitems: \"$.rows[*]\"\n"
                        + "paginate: {cursor: {param: after, from: \"$.cursor\","
                        + " until: \"response.body.done\"}}"))) {
      stub.on("GET /rows", Reply.json(200, "[{\"id\":1}]"));
      stub.on("GET /detail", signIn());
      String first =
          "{\"rows\":[{\"id\":1}],\"next\":\""
              + stub.url()
              + "/detail\",\"cursor\":\"c2\",\"done\":false}";
      stub.on(
          "GET /first", r -> r.rawUri().endsWith("?after=c2") ? signIn() : Reply.json(200, first));
      String detail = "GET " + stub.url() + "/detail: " + SAID;
      Map<String, String> expected =
          Map.of(
              "valued", "enrich.found " + detail,
              "selected", "enrich.found " + detail,
              "checked", "enrich.found " + detail,
              "whole",
                  "enrich.found " + detail + " (let.digest 'found.digest' failed on it, row 0)",
              "listed", "list " + detail,
              "nexted", "list " + detail,
              "cursored", "list GET " + stub.url() + "/first?after=c2: " + SAID);
      SoftAssertions each = new SoftAssertions();
      expected.forEach(
          (name, line) -> {
            Answer answer = plugin.getparams(name, "{}");
            each.assertThat(answer.status() + " " + answer.body())
                .as(name)
                .isEqualTo("502 {\"error\":\"mapping '" + name + "': " + json(line) + "\"}");
          });
      each.assertAll();
    }
  }

  @Test
  void aPageThatClaimsJsonIsNamedSoAndALongOneIsCut(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir,
                Map.of("up", stub.url()),
                Map.of(),
                listing("cut", "request: {url: \"#{vars.up}/cut\"}\nitems: \"$[*]\""),
                listing("long", "request: {url: \"#{vars.up}/long\"}\nitems: \"$[*]\""),
                listing("bare", "request: {url: \"#{vars.up}/bare\"}\nitems: \"$[*]\""))) {
      stub.on("GET /cut", Reply.json(200, "[{\"id\":1},{\"id\""));
      stub.on(
          "GET /long",
          Reply.json(200, "<html>" + "x".repeat(200_000)).withHeader("Content-Type", "text/html"));
      stub.on("GET /bare", new Reply(200, Map.of(), "Bad gateway\u001b[2J".getBytes(), 0, null));
      assertThat(plugin.getparams("cut", "{}").body())
          .isEqualTo(
              "{\"error\":\"mapping 'cut': list GET "
                  + stub.url()
                  + "/cut: answered 200 with application/json that is not valid JSON:"
                  + " '[{\\\"id\\\":1},{\\\"id\\\"'\"}");
      assertThat(plugin.getparams("long", "{}").body())
          .isEqualTo(
              "{\"error\":\"mapping 'long': list GET "
                  + stub.url()
                  + "/long: answered 200 with text/html (not JSON): '<html>"
                  + "x".repeat(74)
                  + "...'\"}");
      assertThat(plugin.getparams("bare", "{}").body())
          .isEqualTo(
              "{\"error\":\"mapping 'bare': list GET "
                  + stub.url()
                  + "/bare: answered 200 with no Content-Type (not JSON):"
                  + " 'Bad gateway\\\\u001b[2J'\"}");
    }
  }

  /**
   * A login answer that is not JSON (a form-encoded token, as some OAuth servers answer) is named
   * by its status and Content-Type alone: its text may hold a credential no redactor knows yet.
   */
  @Test
  void aLoginAnswerThatIsNotJsonIsNamedWithoutQuotingIt(@TempDir Path dir) {
    String yaml =
        """
        name: cmdb
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request:
            url: "#{vars.up}/api/hosts"
            auth:
              login:
                request: {method: POST, url: "#{vars.up}/api/login"}
                token: "$.token"
          items: "$[*]"
        parameters: {host: item}
        """;
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
      stub.on(
          "POST /api/login",
          Reply.json(200, "access_token=fresh-token-0123456789&token_type=bearer")
              .withHeader("Content-Type", "application/x-www-form-urlencoded"));
      Answer answer = plugin.getparams("cmdb", "{}");
      assertThat(answer.status() + " " + answer.body())
          .isEqualTo(
              "502 {\"error\":\"mapping 'cmdb': list GET "
                  + stub.url()
                  + "/api/hosts: login request POST "
                  + stub.url()
                  + "/api/login: answered 200 with application/x-www-form-urlencoded (not"
                  + " JSON)\"}");
    }
  }

  @Test
  void aBodyReadAsTextOnPurposeStillAnswers(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir,
                Map.of("up", stub.url()),
                Map.of(),
                enrich(
                    "unset",
                    "{url: \"#{vars.up}/version\"}\nvalue: response.body.strip()",
                    "parameters: {v: found}"),
                enrich(
                    "whole",
                    "{url: \"#{vars.up}/version\"}",
                    "let: {v: found.strip()}\nparameters: {v: v}"),
                enrich(
                    "stated",
                    "{url: \"#{vars.up}/version\", format: text}\nvalue: response.body.strip()",
                    "parameters: {v: found}"))) {
      stub.on("GET /rows", Reply.json(200, "[{\"id\":1}]"));
      stub.on("GET /version", Reply.json(200, "v1.2.3\n").withHeader("Content-Type", "text/plain"));
      for (String name : new String[] {"unset", "whole", "stated"}) {
        Answer answer = plugin.getparams(name, "{}");
        assertThat(answer.body())
            .as(name)
            .isEqualTo("{\"output\":{\"parameters\":[{\"v\":\"v1.2.3\"}]}}");
      }
    }
  }

  private static String json(String text) {
    return text.replace("\\", "\\\\").replace("\"", "\\\"");
  }
}
