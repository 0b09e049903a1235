package io.github.appsetmapper.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.appsetmapper.config.AuthSpec;
import io.github.appsetmapper.config.Expr;
import io.github.appsetmapper.config.InputSpec;
import io.github.appsetmapper.config.MappingException;
import io.github.appsetmapper.config.MappingParser;
import io.github.appsetmapper.config.MappingSources;
import io.github.appsetmapper.config.MappingSpec;
import io.github.appsetmapper.config.Pos;
import io.github.appsetmapper.config.Problem;
import io.github.appsetmapper.config.RequestOptionTable;
import io.github.appsetmapper.config.RequestOptions;
import io.github.appsetmapper.config.VarSpec;
import io.github.appsetmapper.secret.Redactor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every text of a mapping is checked for Go's {@code {{ }}}, the shell's {@code ${}} and a
 * shell-like {@code $input.x} in one pass ({@link AuthoredText}): keys, names, defaults and scopes
 * that are taken as written, besides the expressions and templates the compiler checks.
 */
class AuthoredTextTest {
  private static final CompileOptions OPTIONS =
      new CompileOptions(Map.of(), n -> null, new Redactor());

  private static List<String> problems(String yaml) {
    MappingException e =
        catchThrowableOfType(
            MappingException.class,
            () -> MappingCompiler.compile(MappingParser.parse("m.yaml", yaml).get(0), OPTIONS));
    assertThat(e).as("refused").isNotNull();
    return e.problems().stream().map(Problem::toString).toList();
  }

  private static String request(String lines) {
    return "name: m\nlist:\n  request:\n    url: \"https://api.example.com/a\"\n"
        + lines
        + "  items: \"$[*]\"\nparameters:\n  x: item\n";
  }

  /**
   * The types the walk knows. A field of another type (a new class holding text, say) fails here
   * until {@link AuthoredText} is taught it; a new record, map, list or string is walked as is.
   */
  private static final Set<Type> KNOWN =
      Set.of(
          Pos.class,
          Expr.class,
          String.class,
          Object.class,
          Integer.class,
          int.class,
          Boolean.class,
          boolean.class,
          Duration.class,
          RequestOptions.class);

  @Test
  void everyFieldOfTheMappingFormatIsOfATypeTheWalkReads() {
    List<String> unknown = new ArrayList<>();
    Set<Class<?>> seen = new HashSet<>();
    fields(MappingSpec.class, "", seen, unknown);
    for (Class<?> auth : AuthSpec.class.getPermittedSubclasses()) {
      fields(auth, "auth." + auth.getSimpleName(), seen, unknown);
    }
    assertThat(unknown).isEmpty();
    // The walk reaches the records under the options (headers, auth, tls) and the body.
    assertThat(seen).contains(AuthSpec.OAuth2.class, VarSpec.class, InputSpec.class);
  }

  /**
   * What a request option or a body holds is known only once read: every value of every shipped
   * mapping is of a type the walk reads.
   */
  @Test
  void everyValueOfTheShippedMappingsIsOfATypeTheWalkReads() throws Exception {
    List<String> unknown = new ArrayList<>();
    int read = 0;
    for (String root : List.of("mappings", "samples", "src/test/resources/golden")) {
      try (Stream<Path> walk = Files.walk(Path.of(root))) {
        for (Path file : walk.filter(AuthoredTextTest::mappingFile).toList()) {
          for (MappingSpec spec : MappingParser.parse(file.toString(), Files.readString(file))) {
            value(spec, file.toString(), unknown);
            read++;
          }
        }
      }
    }
    assertThat(read).isGreaterThan(10);
    assertThat(unknown).isEmpty();
  }

  private static boolean mappingFile(Path file) {
    return MappingSources.isMappingFile(file) && !file.toString().contains("argocd");
  }

  private static void value(Object value, String path, List<String> unknown) {
    if (value == null || value instanceof Enum<?>) {
      return;
    }
    if (value instanceof Map<?, ?> map) {
      map.forEach((k, v) -> value(v, path + "." + k, unknown));
    } else if (value instanceof Collection<?> items) {
      items.forEach(item -> value(item, path + "[]", unknown));
    } else if (value instanceof RequestOptions options) {
      RequestOptionTable.ALL.forEach(
          option -> value(options.get(option), path + "." + option.key(), unknown));
    } else if (value instanceof Record record) {
      for (RecordComponent component : record.getClass().getRecordComponents()) {
        try {
          var accessor = component.getAccessor();
          accessor.setAccessible(true);
          value(accessor.invoke(record), path + "." + component.getName(), unknown);
        } catch (ReflectiveOperationException e) {
          throw new AssertionError(e);
        }
      }
    } else if (!KNOWN.contains(value.getClass())
        && !(value instanceof Number)
        && !(value instanceof Boolean)) {
      unknown.add(path + ": " + value.getClass().getName());
    }
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        // a query key, a body key at depth (a header name is refused as no token of RFC 9110)
        "query: {\"{{ .k }}\": v} | m.yaml:5:25 list.request.query.{{ .k }}: '{{ .k }}' is Go"
            + " template syntax in a key, which is taken as written: a key is no template"
            + " (appset-mapper templates are #{...} in values only)",
        "query: {\"${k}\": v} | m.yaml:5:21 list.request.query.${k}: '${k}' is shell syntax in a"
            + " key, which is taken as written: a key is no template (appset-mapper templates are"
            + " #{...} in values only)",
        "method: POST\\nbody: {a: {b: [{\"{{x}}\": v}]}} | m.yaml:6:30"
            + " list.request.body.a.b[0].{{x}}: '{{x}}' is Go template syntax in a key, which is"
            + " taken as written: a key is no template (appset-mapper templates are #{...} in"
            + " values only)",
      })
  void aKeyInAnotherSyntaxIsRefused(String lines, String message) {
    assertThat(problems(request("    " + lines.replace("\\n", "\n    ") + "\n")))
        .containsExactly(message);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "vars:\\n  api: {default: \"{{ .Values.api }}\"}\\n | m.yaml:3:8 vars.api: '{{ .Values.api"
            + " }}' is Go template syntax, and this text is taken as written (it is no"
            + " template): write the value itself, or leave the default out and give the value at"
            + " deploy time with --var api=... (a default is shipped as written, even where --var"
            + " overrides it)",
        "input:\\n  env: {default: \"${ENV}\"}\\n | m.yaml:3:8 input.env: '${ENV}' is shell syntax,"
            + " and this text is taken as written (it is no template): write the value itself, or leave"
            + " the default out: the caller's input gives it",
        "input:\\n  envs: {type: list, default: [a, \"{{ .b }}\"]}\\n | m.yaml:3:9 input.envs:"
            + " '{{ .b }}' is Go template syntax, and this text is taken as written (it is no"
            + " template): write the value itself, or leave the default out: the caller's input"
            + " gives it",
      })
  void aDefaultInAnotherSyntaxIsRefused(String declarations, String message) {
    String yaml = "name: m\n" + declarations.replace("\\n", "\n") + request("").substring(8);
    assertThat(problems(yaml)).containsExactly(message);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "https://api.example.com/$input.owner/x | $input.owner | input.owner",
        "https://api.example.com/a/$input.a.b | $input.a.b | input.a.b",
        "https://api.example.com/a?b=$vars.x.y | $vars.x.y | vars.x.y",
      })
  void aShellLikeNameInAUrlIsRefused(String url, String written, String fix) {
    String yaml =
        "name: m\nvars:\n  x: {default: a}\nlist:\n  request:\n    url: \""
            + url
            + "\"\n  items: \"$[*]\"\nparameters:\n  x: item\n";
    assertThat(problems(yaml))
        .containsExactly(
            "m.yaml:6:10 list.request.url: '"
                + written
                + "' is shell-like syntax, which would be sent as written: appset-mapper"
                + " templates are #{...}: write #{"
                + fix
                + "}, or #{'"
                + written
                + "'} to send it as written");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "    query: {$filter: \"status eq 'open'\", $top: \"10\", q: \"$price\"}\n",
        "    headers: {X-A: \"#{'{{ .x }}'}\"}\n",
        "    method: POST\n    body: {total: {$sum: \"$$item.price\"}}\n",
      })
  void odataNamesAndQuotedLiteralsStillLoad(String lines) throws Exception {
    MappingCompiler.compile(MappingParser.parse("m.yaml", request(lines)).get(0), OPTIONS);
  }

  @Test
  void aDescriptionMayQuoteAnotherSyntax() throws Exception {
    MappingCompiler.compile(
        MappingParser.parse(
                "m.yaml",
                "name: m\ndescription: \"replaces {{ .branch }} and ${BRANCH}\"\n"
                    + request("").substring(8))
            .get(0),
        OPTIONS);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "input:\\n  x: {}\\n | input.x",
        "vars:\\n  x: {default: a}\\n | vars.x",
        "input:\\n  y: {}\\nvars:\\n  z: {default: a}\\n | input.x (declare 'x' under input:, or"
            + " under vars: and read vars.x for a deploy-time setting; declared: input.y, vars.z)",
      })
  void helmsValuesAreHintedByWhatTheMappingDeclares(String declarations, String hint) {
    String yaml =
        "name: m\n"
            + declarations.replace("\\n", "\n")
            + request("").substring(8).replace("x: item", "x: \"{{ .Values.x }}\"");
    assertThat(problems(yaml))
        .singleElement()
        .asString()
        .endsWith("write the bare expression: " + hint);
  }

  private static void fields(Class<?> type, String path, Set<Class<?>> seen, List<String> unknown) {
    if (!seen.add(type)) {
      return;
    }
    for (RecordComponent component : type.getRecordComponents()) {
      type(component.getGenericType(), path + "." + component.getName(), seen, unknown);
    }
  }

  private static void type(Type type, String path, Set<Class<?>> seen, List<String> unknown) {
    if (type instanceof ParameterizedType generic) {
      Class<?> raw = (Class<?>) generic.getRawType();
      if (!Map.class.isAssignableFrom(raw) && !Collection.class.isAssignableFrom(raw)) {
        unknown.add(path + ": " + type);
      }
      for (Type argument : generic.getActualTypeArguments()) {
        type(argument, path + "[]", seen, unknown);
      }
    } else if (type instanceof Class<?> plain) {
      if (plain.isRecord()) {
        fields(plain, path, seen, unknown);
      } else if (plain.isInterface() && plain.isSealed()) {
        for (Class<?> sub : plain.getPermittedSubclasses()) {
          fields(sub, path, seen, unknown);
        }
      } else if (!plain.isEnum() && !KNOWN.contains(plain)) {
        unknown.add(path + ": " + plain.getName());
      }
    } else {
      unknown.add(path + ": " + type);
    }
  }
}
