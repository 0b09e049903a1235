package io.github.appsetmapper.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.appsetmapper.config.MappingException;
import io.github.appsetmapper.config.MappingParser;
import io.github.appsetmapper.config.Problem;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.upstream.call.TlsSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Loading the upstream-reach fields: auth kinds, tls, retries, cursor/page, deadline. */
class UpstreamReachLoadTest {
  private static final CompileOptions OPTIONS =
      new CompileOptions(Map.of(), name -> null, new Redactor());

  private static CompiledMapping compile(String yaml) throws MappingException {
    return MappingCompiler.compile(MappingParser.parse("m.yaml", yaml).get(0), OPTIONS);
  }

  private static List<String> problems(String yaml) {
    MappingException e = catchThrowableOfType(MappingException.class, () -> compile(yaml));
    assertThat(e).as("the mapping should have been refused").isNotNull();
    return e.problems().stream().map(Problem::toString).toList();
  }

  @Nested
  class Valid {
    @Test
    void everyAuthKindTlsRetriesAndPagingModeLoad() throws MappingException {
      CompiledMapping mapping =
          compile(
              """
              name: m
              deadline: 5s
              vars: {idp: {default: "https://login.example.com"}}
              secrets:
                client: {env: CLIENT}
                key: {env: KEY}
                pw: {env: PW}
              defaults:
                retries: 4
                tls: {caFile: /etc/ca.pem}
                auth:
                  oauth2:
                    tokenUrl: "#{vars.idp}/token"
                    clientId: appset
                    clientSecret: {secret: client}
                    scopes: [read, inventory]
                    params: {audience: inventory}
                    clientAuth: body
              list:
                request:
                  url: https://api.example.com/items
                  retries: 0
                  tls: {caFile: /etc/ca.pem, certFile: /etc/client.pem, keyFile: /etc/client.key}
                items: "$.items[*]"
                paginate: {cursor: {param: after, from: "$.next", until: "response.body.done"}}
              enrich:
                app:
                  request:
                    url: "https://api.github.com/repos/x/#{item.name}/pulls"
                    auth:
                      githubApp: {appId: 42, installationId: "7", privateKey: {secret: key}}
                  select: "$[*]"
                  paginate: {page: {param: page, start: 1, size: 100, sizeParam: per_page}}
                digest:
                  request:
                    method: HEAD
                    url: "https://ghcr.io/v2/x/#{item.name}/manifests/latest"
                    auth: {registry: {}}
                  value: "response.headers['Docker-Content-Digest']"
                login:
                  request:
                    url: https://inventory.example.com/x
                    auth:
                      login:
                        request:
                          method: POST
                          url: https://inventory.example.com/login
                          body: {user: bot, password: "#{secret.pw}"}
                        token: "$.session.token"
                        expiresIn: 15m
                        header: X-Session
                        scheme: ""
              parameters: {name: item.name}
              """);
      assertThat(mapping.deadline()).isEqualTo(Duration.ofSeconds(5));
      CompiledRequest list = mapping.list().request();
      assertThat(list.settings().retries()).isZero();
      assertThat(list.settings().tls())
          .isEqualTo(
              new TlsSettings(
                  Path.of("/etc/ca.pem"),
                  Path.of("/etc/client.pem"),
                  Path.of("/etc/client.key"),
                  false));
      assertThat(list.auth()).isInstanceOf(CompiledAuth.OAuth2.class);
      CompiledAuth.OAuth2 oauth2 = (CompiledAuth.OAuth2) list.auth();
      assertThat(oauth2.scopes()).containsExactly("read", "inventory");
      assertThat(oauth2.basicClientAuth()).isFalse();
      assertThat(((CompiledPaginate.Cursor) mapping.list().paginate()).param()).isEqualTo("after");

      CompiledEnrich app = mapping.enrich().get(0);
      assertThat(app.request().settings().retries()).isEqualTo(4);
      assertThat(app.request().settings().tls().caFile()).isEqualTo(Path.of("/etc/ca.pem"));
      assertThat(app.request().auth()).isInstanceOf(CompiledAuth.GithubApp.class);
      CompiledPaginate.Numbered pages = (CompiledPaginate.Numbered) app.paginate();
      assertThat(pages.size()).isEqualTo(100);
      assertThat(pages.sizeParam()).isEqualTo("per_page");

      CompiledAuth.Registry registry =
          (CompiledAuth.Registry) mapping.enrich().get(1).request().auth();
      assertThat(registry.username()).isNull();

      CompiledAuth.Login login = (CompiledAuth.Login) mapping.enrich().get(2).request().auth();
      assertThat(login.header()).isEqualTo("X-Session");
      assertThat(login.scheme()).isEmpty();
      assertThat(login.expiresIn()).isEqualTo(Duration.ofMinutes(15));
      // The login request never takes defaults.auth (that would be itself).
      assertThat(login.request().auth()).isNull();
      assertThat(login.request().method()).isEqualTo("POST");
    }

    @Test
    void defaultsAreTwoRetriesTwentyFiveSecondsAndTheJvmsTls() throws MappingException {
      CompiledMapping mapping =
          compile(
              """
              name: m
              list:
                request: {url: https://api.example.com/items}
                items: "$[*]"
              parameters: {id: item.id}
              """);
      assertThat(mapping.deadline()).isEqualTo(Duration.ofSeconds(25));
      assertThat(mapping.list().request().settings().retries()).isEqualTo(2);
      assertThat(mapping.list().request().settings().tls()).isNull();
    }
  }

  @Nested
  class RefusedWhenRead {
    @Test
    void authKinds() {
      assertThat(
              problems(
                  """
                  name: m
                  secrets: {s: {env: S}}
                  enrich:
                    a:
                      request:
                        url: https://x.example.com/a
                        auth: {bearer: {secret: s}, registry: {}}
                    b:
                      request:
                        url: https://x.example.com/b
                        auth: {oauth2: {tokenUrl: "https://x.example.com/token"}}
                    c:
                      request:
                        url: https://x.example.com/c
                        auth: {registry: {username: bot}}
                    d:
                      request:
                        url: https://x.example.com/d
                        auth: {githubApp: {appId: "1", privateKey: {secret: s}}}
                  parameters: {x: "'x'"}
                  """))
          .containsExactly(
              "m.yaml:7:13 enrich.a.request.auth: must hold exactly one of bearer, basic, header,"
                  + " oauth2, login, githubApp, registry",
              "m.yaml:11:22 enrich.b.request.auth.oauth2: missing required key 'clientId'",
              "m.yaml:11:22 enrich.b.request.auth.oauth2: missing required key 'clientSecret'",
              "m.yaml:15:24 enrich.c.request.auth.registry: username and password go together;"
                  + " give neither for anonymous pulls",
              "m.yaml:19:25 enrich.d.request.auth.githubApp: missing required key"
                  + " 'installationId'");
    }

    @Test
    void loginRequests() {
      assertThat(
              problems(
                  """
                  name: m
                  enrich:
                    a:
                      request:
                        url: https://x.example.com/a
                        auth:
                          login:
                            request:
                              url: https://x.example.com/login
                              failWhen: "response.status == 200"
                              auth: {registry: {}}
                            token: "$.token"
                            header: "bad header"
                  parameters: {x: "'x'"}
                  """))
          .containsExactly(
              "m.yaml:10:23 enrich.a.request.auth.login.request.failWhen: a login request takes no"
                  + " failWhen; a non-2xx answer fails it",
              "m.yaml:11:19 enrich.a.request.auth.login.request.auth: a login request may use"
                  + " bearer, basic or header auth only",
              "m.yaml:13:19 enrich.a.request.auth.login.header: invalid header name 'bad header'");
    }

    @Test
    void tlsRetriesAndDeadline() {
      assertThat(
              problems(
                  """
                  name: m
                  deadline: 0s
                  defaults:
                    retries: 11
                    tls: {}
                  enrich:
                    a:
                      request:
                        method: POST
                        url: https://x.example.com/a
                        retries: 1
                        tls: {certFile: /c.pem, insecureSkipVerify: true, caFile: /ca.pem}
                  parameters: {x: "'x'"}
                  """))
          .containsExactly(
              "m.yaml:2:11 deadline: duration '0s' must be longer than zero",
              "m.yaml:4:12 defaults.retries: must be at most 10, not 11",
              "m.yaml:5:8 defaults.tls: sets nothing; give caFile, certFile with keyFile, or"
                  + " insecureSkipVerify",
              "m.yaml:11:16 enrich.a.request.retries: POST requests are never retried (only GET,"
                  + " HEAD, OPTIONS, PUT and DELETE are); remove it",
              "m.yaml:12:12 enrich.a.request.tls: certFile and keyFile go together (a client"
                  + " certificate)",
              "m.yaml:12:12 enrich.a.request.tls: insecureSkipVerify and caFile contradict each"
                  + " other; keep one");
    }

    @Test
    void pagination() {
      assertThat(
              problems(
                  """
                  name: m
                  list:
                    request: {url: https://x.example.com/a}
                    items: "$[*]"
                    paginate: {linkHeader: next, page: {param: p}}
                  enrich:
                    a:
                      request: {url: "https://x.example.com/#{item.id}"}
                      select: "$[*]"
                      paginate: {cursor: {param: after}}
                    b:
                      request: {url: "https://x.example.com/#{item.id}"}
                      select: "$[*]"
                      paginate: {page: {sizeParam: per_page, start: -1}}
                  parameters: {x: "'x'"}
                  """))
          .containsExactly(
              "m.yaml:5:13 list.paginate: must hold exactly one of linkHeader, next, cursor, page"
                  + " (it holds linkHeader, page)",
              "m.yaml:10:24 enrich.a.paginate.cursor: missing required key 'from'",
              "m.yaml:14:22 enrich.b.paginate.page: sizeParam needs size (the page size to send)",
              "m.yaml:14:51 enrich.b.paginate.page.start: must be at least 0, not -1");
    }
  }

  @Nested
  class RefusedWhenCompiled {
    @Test
    void tokenSettingsReadOnlyVarsAndSecrets() {
      assertThat(
              problems(
                  """
                  name: m
                  inputAdditional: true
                  secrets: {s: {env: S}}
                  enrich:
                    b:
                      request:
                        url: https://x.example.com/b
                        auth:
                          oauth2:
                            tokenUrl: "https://x.example.com/#{input.tenant}"
                            clientId: x
                            clientSecret: {secret: s}
                    d:
                      request:
                        url: https://x.example.com/d
                        auth:
                          githubApp:
                            appId: "#{applicationSetName}"
                            installationId: "1"
                            privateKey: {secret: nope}
                  parameters: {x: "'x'"}
                  """))
          .containsExactly(
              "m.yaml:10:21 enrich.b.request.auth.oauth2.tokenUrl: 'input' cannot be read here: a"
                  + " token is shared by every call, so its settings may read only vars and secret",
              "m.yaml:18:11 enrich.d.request.auth.githubApp: secret 'nope' is not declared under"
                  + " secrets",
              "m.yaml:18:18 enrich.d.request.auth.githubApp.appId: 'applicationSetName' cannot be"
                  + " read here: a token is shared by every call, so its settings may read only"
                  + " vars and secret");
    }

    @Test
    void pathsAndExpressions() {
      assertThat(
              problems(
                  """
                  name: m
                  secrets: {s: {env: S}}
                  list:
                    request: {url: https://x.example.com/a}
                    items: "$[*]"
                  enrich:
                    a:
                      request: {url: "https://x.example.com/#{item.id}"}
                      select: "$[*]"
                      paginate: {cursor: {param: after, from: "$.next", until: "secret.s == ''"}}
                    c:
                      request: {url: "https://x.example.com/#{item.id}"}
                      select: "$[*]"
                      paginate: {cursor: {from: "$.pages[*].next"}}
                    d:
                      request:
                        url: https://x.example.com/d
                        auth: {login: {request: {url: "https://x.example.com/login"}, token: "$.t[*]"}}
                  parameters: {x: "'x'"}
                  """))
          .containsExactly(
              "m.yaml:10:62 enrich.a.paginate.cursor.until: 'secret' can be used only inside a"
                  + " request (url, query, headers, body, auth)",
              "m.yaml:14:31 enrich.c.paginate.cursor.from: 'from' must be a definite JsonPath to"
                  + " one value",
              "m.yaml:18:76 enrich.d.request.auth.login.token: 'token' must be a definite JsonPath"
                  + " to one value");
    }
  }
}
