package io.github.appsetmapper.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** The one leak check of an answer, an explain report or log lines, for the echo tests. */
public final class NoLeak {
  private static final ObjectMapper JSON = new ObjectMapper();

  private NoLeak() {}

  /**
   * Neither the text as sent nor, when it is JSON, any string in it (a key or a value, unescaped)
   * holds a piece {@code leaks} finds.
   */
  public static void assertNone(String text, Function<String, List<String>> leaks) {
    assertThat(leaks.apply(text)).as(text).isEmpty();
    List<String> strings = new ArrayList<>();
    try {
      collect(JSON.readTree(text), strings);
    } catch (java.io.IOException e) {
      return; // not JSON: checked as it is
    }
    for (String string : strings) {
      assertThat(leaks.apply(string)).as(string).isEmpty();
    }
  }

  private static void collect(JsonNode node, List<String> into) {
    if (node.isTextual()) {
      into.add(node.textValue());
    }
    node.fieldNames().forEachRemaining(into::add);
    node.elements().forEachRemaining(child -> collect(child, into));
  }
}
