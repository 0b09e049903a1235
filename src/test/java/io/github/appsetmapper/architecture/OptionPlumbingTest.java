package io.github.appsetmapper.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.compile.CompileOptions;
import io.github.appsetmapper.compile.CompiledRequest;
import io.github.appsetmapper.compile.MappingCompiler;
import io.github.appsetmapper.config.MappingParser;
import io.github.appsetmapper.config.RequestOption;
import io.github.appsetmapper.config.RequestOptionTable;
import io.github.appsetmapper.config.RequestOptions;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.upstream.call.CallSettings;
import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Proxy;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A request option is declared once, in {@code config/RequestOptionTable.ALL}
 * (docs/architecture.md, "A request option"), and passes from there through the parser, the one
 * merge, the call settings and their copy. A step forgotten there would drop the value silently at
 * request time; here it fails at once, for every option, present and future: each declaration's
 * example is set under {@code defaults} in a mapping that is compiled, and must change the request
 * it compiles to.
 */
class OptionPlumbingTest {

  private static final String MAPPING =
      "name: probe\n"
          + "allowedHosts: [h.example]\n"
          + "secrets: {t: {env: PROBE_TOKEN}}\n"
          + "%s"
          + "list:\n"
          + "  request: {url: 'https://h.example/'}\n"
          + "  items: $[*]\n"
          + "parameters: {a: \"'x'\"}\n";

  @Test
  void everyRequestOptionHasOneKey() {
    assertThat(RequestOptions.KEYS).doesNotHaveDuplicates().hasSize(RequestOptionTable.ALL.size());
  }

  /**
   * Each option has its row, as declared, in the requests table of docs/mapping-reference.md, and a
   * row in its {@code defaults} table. A failure names the missing row and its table only (never
   * the whole reference).
   */
  @Test
  void everyRequestOptionHasItsRowsInTheReference() throws Exception {
    String reference = java.nio.file.Files.readString(Path.of("docs/mapping-reference.md"));
    List<String> requests = section(reference, "## Requests: ");
    List<String> defaults = section(reference, "## `defaults`");
    List<String> missing = new java.util.ArrayList<>();
    for (RequestOption<?> option : RequestOptionTable.ALL) {
      String row = "| `" + option.key() + "` | " + option.reference() + " |";
      if (!requests.contains(row)) {
        missing.add(
            "docs/mapping-reference.md, the requests table (## Requests) has no row, as"
                + " RequestOptionTable declares it: "
                + row);
      }
      String defaultsRow = "| `" + option.key() + "` | ";
      if (defaults.stream().noneMatch(line -> line.startsWith(defaultsRow))) {
        missing.add(
            "docs/mapping-reference.md, the table of ## `defaults` has no row for "
                + option.key()
                + ": "
                + defaultsRow
                + "<what it does for every request> |");
      }
    }
    if (!missing.isEmpty()) {
      org.junit.jupiter.api.Assertions.fail(String.join("\n", missing));
    }
  }

  /** The lines under the heading starting with {@code heading}, up to the next {@code ## }. */
  private static List<String> section(String text, String heading) {
    List<String> lines = text.lines().toList();
    int start = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith(heading)) {
        start = i + 1;
        break;
      }
    }
    assertThat(start).as("docs/mapping-reference.md has a heading " + heading).isPositive();
    int end = start;
    while (end < lines.size() && !lines.get(end).startsWith("## ")) {
      end++;
    }
    return lines.subList(start, end);
  }

  /**
   * The schema gives each option under {@code request} and under {@code defaults} (its key sets are
   * checked against the parser by MappingSchemaTest) with one type: the two differ in their
   * description only.
   */
  @Test
  void theSchemaTypesEachRequestOptionOnceForRequestsAndDefaults() throws Exception {
    com.fasterxml.jackson.databind.JsonNode definitions =
        new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree(Path.of("schema/mapping-v1.schema.json").toFile())
            .path("definitions");
    for (RequestOption<?> option : RequestOptionTable.ALL) {
      var inRequest = definitions.path("request").path("properties").path(option.key()).deepCopy();
      var inDefaults =
          definitions.path("defaults").path("properties").path(option.key()).deepCopy();
      assertThat(inRequest.isObject()).as(option.key() + " under request").isTrue();
      assertThat(inDefaults.isObject()).as(option.key() + " under defaults").isTrue();
      ((com.fasterxml.jackson.databind.node.ObjectNode) inRequest).remove("description");
      ((com.fasterxml.jackson.databind.node.ObjectNode) inDefaults).remove("description");
      assertThat(inDefaults)
          .as(option.key() + ": one type under request and defaults")
          .isEqualTo(inRequest);
    }
  }

  @Test
  void everyRequestOptionIsTakenFromDefaultsAndKeptOverThem() throws Exception {
    RequestOptions set = allSet();
    RequestOptions fromDefaults = RequestOptions.NONE.over(set);
    RequestOptions own = set.over(RequestOptions.NONE);
    for (RequestOption<?> option : RequestOptionTable.ALL) {
      Object expected = set.get(option);
      assertThat(expected).as(option.key() + "'s example sets it").isNotNull();
      assertThat(fromDefaults.get(option)).as(option.key() + " from defaults").isEqualTo(expected);
      assertThat(own.get(option)).as(option.key() + " of the request").isEqualTo(expected);
    }
  }

  @Test
  void aLoginRequestTakesWhatItsRuleSays() throws Exception {
    RequestOptions set = allSet();
    RequestOptions fromDefaults = RequestOptions.NONE.overForLogin(set);
    RequestOptions own = set.overForLogin(RequestOptions.NONE);
    for (RequestOption<?> option : RequestOptionTable.ALL) {
      Object unset = RequestOptions.NONE.over(RequestOptions.NONE).get(option);
      RequestOption.OnLogin rule = option.onLogin();
      assertThat(fromDefaults.get(option))
          .as(option.key() + " from defaults on a login")
          .isEqualTo(rule == RequestOption.OnLogin.AS_ANY_REQUEST ? set.get(option) : unset);
      assertThat(own.get(option))
          .as(option.key() + " of a login request")
          .isEqualTo(rule == RequestOption.OnLogin.NEVER ? unset : set.get(option));
    }
  }

  /**
   * Each option set under {@code defaults} changes the compiled request (its call settings, or a
   * component the engine reads), and changes what token calls keep of the call, and the cache key,
   * exactly when its declaration says so.
   */
  @Test
  void everyRequestOptionReachesTheCall() throws Exception {
    CompiledRequest plain = compile("");
    for (RequestOption<?> option : RequestOptionTable.ALL) {
      CompiledRequest set =
          compile("defaults:\n  " + option.key() + ": " + option.example() + "\n");
      assertThat(reach(set))
          .as(option.key() + " set under defaults reaches the compiled request")
          .isNotEqualTo(reach(plain));
      assertThat(set.settings().forTokenCall().equals(plain.settings().forTokenCall()))
          .as(option.key() + " reaches token calls (CallSettings.forTokenCall) as declared")
          .isEqualTo(option.tokenCalls() == RequestOption.TokenCalls.WITHOUT_IT);
      assertThat(set.settings().cacheKeyText().equals(plain.settings().cacheKeyText()))
          .as(option.key() + " is part of the cache key (CallSettings.cacheKeyText) as declared")
          .isEqualTo(option.cacheKey() == RequestOption.CacheKey.NOT_PART_OF_IT);
    }
  }

  private static RequestOptions allSet() throws Exception {
    StringBuilder defaults = new StringBuilder("defaults:\n");
    for (RequestOption<?> option : RequestOptionTable.ALL) {
      defaults.append("  ").append(option.key()).append(": ").append(option.example()).append('\n');
    }
    return MappingParser.parse("probe.yaml", MAPPING.formatted(defaults)).get(0).defaults();
  }

  private static CompiledRequest compile(String defaults) throws Exception {
    return MappingCompiler.compile(
            MappingParser.parse("probe.yaml", MAPPING.formatted(defaults)).get(0),
            new CompileOptions(Map.of(), name -> null, new Redactor()))
        .list()
        .request();
  }

  /**
   * What the engine acts on of a compiled request, comparable between two compilations: values,
   * records of values, the names of maps, and whether anything else (a template, an expression, an
   * auth) is there.
   */
  private static List<Object> reach(CompiledRequest request) throws Exception {
    List<Object> out = new java.util.ArrayList<>();
    for (RecordComponent c : CompiledRequest.class.getRecordComponents()) {
      Object value = c.getAccessor().invoke(request);
      if (value instanceof Map<?, ?> map) {
        out.add(Set.copyOf(map.keySet()));
      } else if (value == null
          || value instanceof CallSettings
          || value instanceof Duration
          || value instanceof Number
          || value instanceof String
          || value instanceof Set<?>
          || value instanceof Enum<?>) {
        out.add(value);
      } else {
        out.add(c.getName() + " is set");
      }
    }
    return out;
  }

  @Test
  void everyCallSettingSurvivesItsCopies() throws Exception {
    CallSettings set = sample(CallSettings.class);
    assertThat(set.toBuilder().build()).as("toBuilder").isEqualTo(set);
    assertThat(set.withDeadline(set.deadline())).as("withDeadline").isEqualTo(set);
    assertThat(set.withAuth(set.auth())).as("withAuth").isEqualTo(set);
    assertThat(set.withWire(set.wire())).as("withWire").isEqualTo(set);
  }

  /** A value of {@code type} with every component set (never null, never a builder's default). */
  @SuppressWarnings("unchecked")
  static <T> T sample(Class<T> type) throws Exception {
    return (T) sample(type, type);
  }

  private static Object sample(Class<?> type, Type generic) throws Exception {
    if (type == int.class || type == Integer.class) {
      return 7;
    }
    if (type == long.class || type == Long.class) {
      return 7L;
    }
    if (type == boolean.class || type == Boolean.class) {
      return true;
    }
    if (type == String.class || type == Object.class) {
      return "x";
    }
    if (type == Duration.class) {
      return Duration.ofSeconds(7);
    }
    if (type == java.net.URI.class) {
      return java.net.URI.create("https://x.example/");
    }
    if (type.isArray()) {
      Object array = java.lang.reflect.Array.newInstance(type.getComponentType(), 1);
      java.lang.reflect.Array.set(
          array, 0, sample(type.getComponentType(), type.getComponentType()));
      return array;
    }
    if (type == char.class || type == Character.class) {
      return 'x';
    }
    if (type == byte.class || type == Byte.class) {
      return (byte) 7;
    }
    if (type == Path.class) {
      return Path.of("x");
    }
    if (type.isEnum()) {
      return type.getEnumConstants()[type.getEnumConstants().length - 1];
    }
    if (Map.class.isAssignableFrom(type)) {
      Map<String, Object> map = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      Type[] args = ((ParameterizedType) generic).getActualTypeArguments();
      map.put("x", sample(raw(args[1]), args[1]));
      return map;
    }
    if (List.class.isAssignableFrom(type)) {
      return List.of();
    }
    if (Set.class.isAssignableFrom(type)) {
      return Set.of();
    }
    if (type.isRecord()) {
      RecordComponent[] components = type.getRecordComponents();
      Class<?>[] types =
          Arrays.stream(components).map(RecordComponent::getType).toArray(Class[]::new);
      Object[] values = new Object[components.length];
      for (int i = 0; i < components.length; i++) {
        values[i] = sample(components[i].getType(), components[i].getGenericType());
      }
      Constructor<?> canonical = type.getDeclaredConstructor(types);
      canonical.setAccessible(true);
      return canonical.newInstance(values);
    }
    if (type.isSealed()) {
      return sample(type.getPermittedSubclasses()[0], type.getPermittedSubclasses()[0]);
    }
    if (type.isInterface()) {
      return Proxy.newProxyInstance(
          type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> null);
    }
    throw new IllegalStateException("no sample for " + type + ": add one");
  }

  private static Class<?> raw(Type type) {
    return type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) type;
  }
}
