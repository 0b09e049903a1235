package io.github.appsetmapper.upstream.call;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** HTTP header fields in order, names compared case-insensitively. */
public record Headers(List<Header> fields) {

  public record Header(String name, String value) {}

  public Headers {
    fields = List.copyOf(fields);
  }

  public static Headers of(List<Header> fields) {
    return new Headers(fields);
  }

  public String first(String name) {
    for (Header field : fields) {
      if (field.name().equalsIgnoreCase(name)) {
        return field.value();
      }
    }
    return null;
  }

  public List<String> all(String name) {
    List<String> values = new ArrayList<>();
    for (Header field : fields) {
      if (field.name().equalsIgnoreCase(name)) {
        values.add(field.value());
      }
    }
    return values;
  }

  /** Case-insensitive map, several values of one name joined by ", " (RFC 9110 list syntax). */
  public Map<String, Object> asMap() {
    Map<String, Object> map = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    for (Header field : fields) {
      map.merge(field.name().toLowerCase(Locale.ROOT), field.value(), (a, b) -> a + ", " + b);
    }
    return Collections.unmodifiableMap(map);
  }
}
