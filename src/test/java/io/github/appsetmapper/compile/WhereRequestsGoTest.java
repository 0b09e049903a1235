package io.github.appsetmapper.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.appsetmapper.config.MappingException;
import io.github.appsetmapper.config.MappingParser;
import io.github.appsetmapper.config.Problem;
import io.github.appsetmapper.secret.Redactor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Load-time rules on where a request may go: the caller (everything Argo CD's request carries)
 * never picks a scheme or host, and credentials go to a host that upstream data names only when the
 * mapping lists the hosts it trusts.
 */
class WhereRequestsGoTest {
  private static CompiledMapping compile(String yaml) throws MappingException {
    return MappingCompiler.compile(
        MappingParser.parse("m.yaml", yaml).get(0),
        new CompileOptions(Map.of(), n -> null, new Redactor()));
  }

  private static List<String> problems(String yaml) {
    MappingException e = catchThrowableOfType(MappingException.class, () -> compile(yaml));
    assertThat(e).as("the mapping should have been refused").isNotNull();
    return e.problems().stream().map(Problem::toString).toList();
  }

  @Nested
  class TheCallerNeverPicksTheHost {
    @ParameterizedTest
    @ValueSource(
        strings = {
          "http://#{applicationSetName}/items",
          "https://#{applicationSetName}.example.com/items",
          "https://api.example.com:#{applicationSetName}/items",
          "https://#{applicationSetName}@api.example.com/items"
        })
    void notFromApplicationSetName(String url) {
      assertThat(
              problems(
                  """
                  name: m
                  list:
                    request: {url: "%s"}
                    items: "$[*]"
                  parameters: {id: item}
                  """
                      .formatted(url)))
          .containsExactly(
              "m.yaml:3:18 list.request.url: the scheme and host of a URL may come only from vars"
                  + " or upstream data, never from applicationSetName (the caller sends it); put"
                  + " it in the path or the query");
    }

    @Test
    void notThroughAnEnrichValueComputedFromInput() {
      assertThat(
              problems(
                  """
                  name: m
                  input: {host: {}}
                  enrich:
                    picked:
                      request: {url: "https://api.example.com/hosts"}
                      value: "input.host + '.example.com'"
                    laundered:
                      request: {url: "https://api.example.com/again"}
                      value: "picked"
                    call:
                      request: {url: "https://#{laundered}/x"}
                      value: "response.status"
                  parameters: {id: call}
                  """))
          .containsExactly(
              "m.yaml:11:20 enrich.call.request.url: the scheme and host of a URL may come only"
                  + " from vars or upstream data, never from what the caller sends: 'laundered'"
                  + " is computed from input or applicationSetName; put it in the path or the"
                  + " query");
    }

    @Test
    void norThroughTheHostHeader() {
      assertThat(
              problems(
                  """
                  name: m
                  input: {tenant: {}}
                  list:
                    request:
                      url: "https://10.0.0.7/items"
                      headers: {Host: "#{input.tenant}.example.com"}
                    items: "$[*]"
                  parameters: {id: item}
                  """))
          .containsExactly(
              "m.yaml:6:21 list.request.headers.Host: the Host header picks the server as the"
                  + " URL's host does: it may come only from literal text and vars");
    }

    @Test
    void inThePathOrQueryItIsData() throws MappingException {
      compile(
          """
          name: m
          input: {x: {}}
          vars: {api: {default: "https://api.example.com"}}
          list:
            request:
              url: "#{vars.api}/sets/#{applicationSetName}/#{input.x}.json?for=#{applicationSetName}"
              headers: {Host: "#{vars.api.substring(8)}", X-Set: "#{applicationSetName}"}
            items: "$[*]"
          parameters: {id: item}
          """);
    }
  }

  @Nested
  class CredentialsAndUpstreamHosts {
    private static final String FOLLOW =
        """
        name: m
        %s
        secrets: {s: {env: S}}
        list:
          request: {url: "https://api.example.com/links"}
          items: "$[*]"
        enrich:
          detail:
            request:
              url: "%s"
              %s
            value: "response.status"
        parameters: {id: detail}
        """;

    private static String follow(String allowed, String url, String credentials) {
      return FOLLOW.formatted(allowed, url, credentials);
    }

    @ParameterizedTest
    @ValueSource(
        strings = {
          "auth: {bearer: {secret: s}}|auth",
          "headers: {X-Token: \"#{secret.s}\"}|headers.X-Token",
          "headers: {Authorization: \"Token abc\"}|headers.Authorization",
          "query: {key: \"#{secret.s}\"}|query.key",
          "method: POST\n      body: {password: \"#{secret.s}\"}|body",
          "tls: {certFile: /c.pem, keyFile: /k.pem}|tls.certFile"
        })
    void aHostFromAnItemNeedsAllowedHosts(String credentials) {
      String[] parts = credentials.split("\\|");
      assertThat(problems(follow("", "#{item.url}/detail", parts[0])))
          .containsExactly(
              "m.yaml:10:12 enrich.detail.request.url: the scheme and host come from upstream data"
                  + " ('item') and the request sends credentials ("
                  + parts[1]
                  + "): declare allowedHosts, the hosts they may be sent to");
    }

    @Test
    void fromAnEnrichResultOrTheDefaultsAuthToo() {
      assertThat(
              problems(
                  """
                  name: m
                  secrets: {s: {env: S}}
                  defaults:
                    auth: {bearer: {secret: s}}
                  enrich:
                    where:
                      request: {url: "https://api.example.com/where"}
                      select: "$.url"
                    there:
                      request: {url: "#{where}/x"}
                      value: "response.status"
                  parameters: {id: there}
                  """))
          .containsExactly(
              "m.yaml:10:20 enrich.there.request.url: the scheme and host come from upstream data"
                  + " ('where') and the request sends credentials (auth): declare allowedHosts,"
                  + " the hosts they may be sent to");
    }

    @Test
    void loadsWithAllowedHostsWithoutCredentialsOrWithTheItemInThePath() throws MappingException {
      compile(
          follow(
              "allowedHosts: [api.example.com]",
              "#{item.url}/detail",
              "auth: {bearer: {secret: s}}"));
      compile(follow("", "#{item.url}/detail", "retries: 1"));
      compile(follow("", "https://api.example.com/x/#{item.id}", "auth: {bearer: {secret: s}}"));
    }
  }
}
