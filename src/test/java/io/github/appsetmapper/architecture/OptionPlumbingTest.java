package io.github.appsetmapper.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.config.RequestOptions;
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
 * A request option passes through several hands (docs/architecture.md, "A request option"): its
 * key, the one merge, the call settings and their copy. A step forgotten there drops the value
 * silently at request time; here it fails at once, for every component, present and future.
 */
class OptionPlumbingTest {

  @Test
  void everyRequestOptionHasItsKey() {
    List<String> components =
        Arrays.stream(RequestOptions.class.getRecordComponents())
            .map(RecordComponent::getName)
            .toList();
    assertThat(RequestOptions.KEYS).containsExactlyInAnyOrderElementsOf(components);
  }

  @Test
  void everyRequestOptionHasItsRowInTheReference() throws Exception {
    String reference = java.nio.file.Files.readString(Path.of("docs/mapping-reference.md"));
    for (String key : RequestOptions.KEYS) {
      assertThat(reference).as("a row for " + key).contains("\n| `" + key + "` |");
    }
  }

  @Test
  void everyRequestOptionIsTakenFromDefaultsAndKeptOverThem() throws Exception {
    RequestOptions set = sample(RequestOptions.class);
    RequestOptions fromDefaults = RequestOptions.NONE.over(set);
    RequestOptions own = set.over(RequestOptions.NONE);
    for (RecordComponent c : RequestOptions.class.getRecordComponents()) {
      Object expected = c.getAccessor().invoke(set);
      assertThat(c.getAccessor().invoke(fromDefaults))
          .as(c.getName() + " from defaults")
          .isEqualTo(expected);
      assertThat(c.getAccessor().invoke(own))
          .as(c.getName() + " of the request")
          .isEqualTo(expected);
    }
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
