package io.github.appsetmapper.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.appsetmapper.config.MappingException;
import io.github.appsetmapper.config.MappingParser;
import io.github.appsetmapper.config.Problem;
import io.github.appsetmapper.secret.Redactor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Ways around the name checks through the scope itself: {@code #root}, a top-level {@code #this},
 * an indexer or a method on the scope. Each must be refused, or checked like a plain name.
 */
class ScopeEscapeTest {
  private static List<String> problems(String url, String parameter) {
    String yaml =
        """
        name: m
        input:
          host: {}
        secrets:
          tok: {env: TOK}
        list:
          request:
            url: "%s"
            headers: {Authorization: "Bearer #{secret.tok}"}
          items: "$[*]"
        parameters:
          x: "%s"
        """
            .formatted(url, parameter);
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
        "https://#{#root.input.host}/a | the scheme and host of a URL may come only from vars or upstream data, never from input; put the input in the path or the query",
        "https://#{#root['input'].host}/a | the scheme and host of a URL may come only from vars or upstream data, never from input; put the input in the path or the query",
        "https://#{#this.input.host}/a | the scheme and host of a URL may come only from vars or upstream data, never from input; put the input in the path or the query",
        "https://#{get('input').host}/a | method 'get' cannot be called on the scope; call it on a value (in 'https://#{get('input').host}/a')",
        "https://#{#root.get('input').host}/a | method 'get' cannot be called on the scope; call it on a value (in 'https://#{#root.get('input').host}/a')",
        "https://#{#json(#root)}/a | #root alone is not allowed; name what you read, as #root.input (in 'https://#{#json(#root)}/a')",
      })
  void theHostCannotComeFromInputAroundTheChecks(String url, String message) {
    assertThat(problems(url, "item.id"))
        .containsExactly("m.yaml:8:10 list.request.url: " + message);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "#root.secret.tok | 'secret' can be used only inside a request (url, query, headers, body, auth)",
        "#root['secret'] | 'secret' can be used only inside a request (url, query, headers, body, auth)",
        "#this.response | 'response' can be used only in an enrich 'value' or a 'failWhen'",
        "#root[item.key] | name what you read literally, as #root.input or #root['input'] (in '#root[item.key]')",
        "item.labels.![#root.secret] | 'secret' can be used only inside a request (url, query, headers, body, auth)",
        "['secret'] | 'secret' can be used only inside a request (url, query, headers, body, auth)",
        "[item.key] | name what you read literally, as #root.input or #root['input'] (in '[item.key]')",
        "?[true].size() | a selection or projection over the scope would read every name; name what you read, as #root.input (in '?[true].size()')",
        "{#root.secret.tok: 1} | 'secret' can be used only inside a request (url, query, headers, body, auth)",
        "{#root: 1} | #root alone is not allowed; name what you read, as #root.input (in '{#root: 1}')",
        "{(item.a): 1, (input.nope): 2} | input 'nope' is not declared under input; known: host",
        "item.labels.?[name == input.label] | inside a projection or selection 'input' reads the element; write #root.input for the scope's input, or #this.input for the element's field (in 'item.labels.?[name == input.label]')",
      })
  void namesReadThroughTheScopeAreChecked(String parameter, String message) {
    assertThat(problems("https://api.example.com/a", parameter))
        .containsExactly("m.yaml:12:6 parameters.x: " + message);
  }
}
