package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.appsetmapper.compile.CompileOptions;
import io.github.appsetmapper.compile.MappingCompiler;
import io.github.appsetmapper.config.MappingException;
import io.github.appsetmapper.config.MappingParser;
import io.github.appsetmapper.config.Problem;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code forEach} on an enrich step: one request per element of a list, in parallel within the
 * mapping's bound, each result addressable by index or key, with the missing and error semantics of
 * a single enrich (never a silently shorter list).
 */
class ForEachTest {
  @TempDir Path dir;
  private StubUpstream stub;

  private static final String ROWS =
      """
      [{"name": "shop", "images": [{"repo": "front", "tag": "v1"}, {"repo": "back", "tag": "v2"},
                                  {"repo": "worker", "tag": "v3"}]},
       {"name": "blog", "images": [{"repo": "web", "tag": "v9"}]},
       {"name": "empty", "images": []}]""";

  @BeforeEach
  void start() {
    stub = new StubUpstream();
    stub.on("GET /apps", Reply.json(200, ROWS));
    stub.otherwise(
        r -> {
          // /v2/<repo>/manifests/<tag>
          String[] parts = r.rawUri().split("/");
          return Reply.status(200)
              .withHeader("Docker-Content-Digest", "sha256:" + parts[2] + "-" + parts[4])
              .delayed(100);
        });
  }

  @AfterEach
  void stop() {
    stub.close();
  }

  private static String mapping(String onMissing, String key, String parameters) {
    return """
        name: m
        concurrency: 3
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/apps"}
          items: "$[*]"
        enrich:
          digests:
            forEach: {in: item.images, as: image%s}
            request:
              method: HEAD
              url: "#{vars.up}/v2/#{image.repo}/manifests/#{image.tag}"
            value: "response.headers['Docker-Content-Digest']"
            onMissing: %s
        parameters:
        %s
        """
        .formatted(key, onMissing, parameters.indent(2).stripTrailing());
  }

  private Answer run(String yaml) {
    try (PluginServer plugin =
        PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
      return plugin.getparams("m", "{}");
    }
  }

  @Test
  void oneCallPerElementInParallelWithinTheBoundEachResultByIndex() {
    Answer answer =
        run(
            mapping(
                "error",
                "",
                "name: item.name\nfirst: \"digests.size() > 0 ? digests[0] : ''\"\nall: digests"));
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    assertThat(answer.body())
        .isEqualTo(
            "{\"output\":{\"parameters\":["
                + "{\"name\":\"shop\",\"first\":\"sha256:front-v1\","
                + "\"all\":[\"sha256:front-v1\",\"sha256:back-v2\",\"sha256:worker-v3\"]},"
                + "{\"name\":\"blog\",\"first\":\"sha256:web-v9\",\"all\":[\"sha256:web-v9\"]},"
                + "{\"name\":\"empty\",\"first\":\"\",\"all\":[]}]}}");
    // Three images of one row and one of another: four registry calls, never more than 3 at once.
    assertThat(stub.calls()).isEqualTo(1 + 4);
    assertThat(stub.maxInFlight()).isBetween(2, 3);
  }

  @Test
  void aKeyMakesTheResultsAMap() {
    Answer answer =
        run(
            mapping(
                "error",
                ", key: image.repo",
                "name: item.name\nfront: \"digests['front']\"\nall: digests"));
    assertThat(answer.body())
        .startsWith(
            "{\"output\":{\"parameters\":["
                + "{\"name\":\"shop\",\"front\":\"sha256:front-v1\",\"all\":"
                + "{\"front\":\"sha256:front-v1\",\"back\":\"sha256:back-v2\",\"worker\":\"sha256:worker-v3\"}},"
                + "{\"name\":\"blog\",\"front\":null,\"all\":{\"web\":\"sha256:web-v9\"}},");
  }

  @Test
  void aMissingElementFailsTheAnswerDropsTheRowOrIsNullInItsPlace() {
    stub.on("HEAD /v2/back/manifests/v2", Reply.status(404));
    Answer error = run(mapping("error", "", "name: item.name"));
    assertThat(error.status()).isEqualTo(502);
    assertThat(error.body())
        .isEqualTo(
            "{\"error\":\"mapping 'm': enrich.digests HEAD "
                + stub.url()
                + "/v2/back/manifests/v2: answered 404\"}");

    Answer drop = run(mapping("drop", "", "name: item.name"));
    assertThat(drop.body())
        .isEqualTo("{\"output\":{\"parameters\":[{\"name\":\"blog\"},{\"name\":\"empty\"}]}}");

    Answer nulled = run(mapping("\"null\"", "", "name: item.name\nall: digests"));
    assertThat(nulled.body())
        .startsWith(
            "{\"output\":{\"parameters\":[{\"name\":\"shop\","
                + "\"all\":[\"sha256:front-v1\",null,\"sha256:worker-v3\"]},");
  }

  @Test
  void aFailedElementFailsTheAnswerWhateverOnMissingSays() {
    stub.on("HEAD /v2/worker/manifests/v3", Reply.status(500));
    Answer answer = run(mapping("drop", "", "name: item.name"));
    assertThat(answer.status()).isEqualTo(502);
    assertThat(answer.body())
        .startsWith(
            "{\"error\":\"mapping 'm': enrich.digests HEAD "
                + stub.url()
                + "/v2/worker/manifests/v3: answered 500");
  }

  @Test
  void inThatIsNotAListAndKeysThatRepeatFailTheAnswer() {
    stub.on(
        "GET /apps", Reply.json(200, "[{\"name\": \"shop\", \"images\": {\"repo\": \"front\"}}]"));
    Answer notAList = run(mapping("error", "", "name: item.name"));
    assertThat(notAList.status()).isEqualTo(502);
    assertThat(notAList.body())
        .isEqualTo(
            "{\"error\":\"mapping 'm': enrich.digests.forEach: forEach 'item.images' needs a list,"
                + " got an object on row 0\"}");

    stub.on(
        "GET /apps",
        Reply.json(
            200,
            "[{\"name\": \"shop\", \"images\": [{\"repo\": \"front\", \"tag\": \"a\"},"
                + " {\"repo\": \"front\", \"tag\": \"b\"}]}]"));
    Answer twice = run(mapping("error", ", key: image.repo", "name: item.name"));
    assertThat(twice.status()).isEqualTo(502);
    assertThat(twice.body())
        .isEqualTo(
            "{\"error\":\"mapping 'm': enrich.digests.forEach: forEach key 'image.repo' gave"
                + " 'front' twice, for elements 0 and 1 on row 0\"}");
    assertThat(stub.calls()).as("no registry call before the keys are checked").isEqualTo(2);
  }

  /**
   * A number key is its one value, as {@code ==} sees it: 1 and 1.0 are one key (twice, an error),
   * 1E+2 is the key "100" (they were "1" and "1.0", and "1E+2").
   */
  @Test
  void numberKeysAreTheirValueWrittenPlainly() {
    stub.on(
        "GET /apps",
        Reply.json(
            200,
            "[{\"name\": \"shop\", \"images\": [{\"repo\": \"front\", \"tag\": \"a\", \"n\": 1},"
                + " {\"repo\": \"back\", \"tag\": \"b\", \"n\": 1.0}]}]"));
    Answer twice = run(mapping("error", ", key: image.n", "name: item.name"));
    assertThat(twice.status()).as(twice.body()).isEqualTo(502);
    assertThat(twice.body())
        .isEqualTo(
            "{\"error\":\"mapping 'm': enrich.digests.forEach: forEach key 'image.n' gave"
                + " '1' twice, for elements 0 and 1 on row 0\"}");

    stub.on(
        "GET /apps",
        Reply.json(
            200,
            "[{\"name\": \"shop\", \"images\": [{\"repo\": \"front\", \"tag\": \"a\", \"n\": 1E+2},"
                + " {\"repo\": \"back\", \"tag\": \"b\", \"n\": 2.50}]}]"));
    Answer plain =
        run(
            mapping(
                "error",
                ", key: image.n",
                "hundred: \"digests['100']\"\nhalf: \"digests['2.5']\""));
    assertThat(plain.body())
        .isEqualTo(
            "{\"output\":{\"parameters\":[{\"hundred\":\"sha256:front-a\",\"half\":\"sha256:back-b\"}]}}");
  }

  private static List<String> loadProblems(String forEach, String url) {
    String yaml =
        """
        name: m
        input:
          hosts: {type: list}
        list:
          request: {url: "https://api.example.com/apps"}
          items: "$[*]"
        enrich:
          digests:
            forEach: %s
            request: {url: "%s"}
        parameters:
          x: digests
        """
            .formatted(forEach, url);
    MappingException e =
        catchThrowableOfType(
            MappingException.class,
            () ->
                MappingCompiler.compile(
                    MappingParser.parse("m.yaml", yaml).get(0),
                    new CompileOptions(Map.of(), n -> null, new Redactor())));
    assertThat(e).as("refused").isNotNull();
    return e.problems().stream().map(Problem::toString).toList();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{in: item.images, as: item} | https://r.example.com/#{item.name} | m.yaml:9:14 enrich.digests.forEach: forEach 'as: item' is a reserved name; choose another name for the element",
        "{in: item.images, as: digests} | https://r.example.com/#{item.name} | m.yaml:9:14 enrich.digests.forEach: forEach 'as: digests' is an enrich name; choose another name for the element",
        "{as: image} | https://r.example.com/#{image} | m.yaml:9:14 enrich.digests.forEach: missing required key 'in' (the list, as item.images)",
        "{in: item.images, as: 'a-b'} | https://r.example.com/x | m.yaml:9:36 enrich.digests.forEach.as: 'a-b' is not a name; use letters, digits and _",
        "{in: input.hosts, as: host} | https://#{host}/v2 | m.yaml:10:20 enrich.digests.request.url: the scheme and host of a URL may come only from vars or upstream data, never from what the caller sends: 'host' is computed from input or applicationSetName; put it in the path or the query",
        "{in: item.images, as: image} | https://r.example.com/#{imag} | m.yaml:10:20 enrich.digests.request.url: unknown name 'imag'; did you mean 'image'?",
      })
  void loadRefusals(String forEach, String url, String problem) {
    assertThat(loadProblems(forEach, url)).contains(problem);
  }
}
