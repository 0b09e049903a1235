package io.github.appsetmapper.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The codec's writer walks plain data itself: its text must be the mapper's to the byte, for every
 * kind of value (half surrogates, control characters, numbers of every type, keys that are not
 * text, a null key, values of no JSON kind), as text and as UTF-8, and fail where the mapper fails.
 */
class PlainWriterTest {
  private static final ObjectMapper MAPPER = JsonCodec.mapperCopy();

  private static final String[] PIECES = {
    "",
    "a",
    "ß",
    "é",
    "İ",
    "\u0000",
    "\u001f",
    "\n",
    "\t",
    "\"",
    "\\",
    "/",
    "<",
    "\u2028",
    "\u2029",
    "\u007f",
    "\u00ff",
    "\ud83d\ude00",
    "\ud800",
    "\udc00",
    "\ufeff",
    "{}",
    "'",
    "€",
    "\r\n"
  };

  private static String text(Random random) {
    StringBuilder text = new StringBuilder();
    int pieces = random.nextInt(6);
    for (int i = 0; i < pieces; i++) {
      text.append(PIECES[random.nextInt(PIECES.length)]);
    }
    return text.toString();
  }

  private static Object value(Random random, int depth) {
    int kind = random.nextInt(depth > 4 ? 14 : 18);
    return switch (kind) {
      case 0, 1, 2 -> text(random);
      case 3 -> random.nextInt();
      case 4 -> random.nextLong();
      case 5 -> random.nextBoolean();
      case 6 -> null;
      case 7 -> new BigDecimal(BigInteger.valueOf(random.nextLong()), random.nextInt(40) - 20);
      case 8 -> BigInteger.valueOf(random.nextLong()).multiply(BigInteger.TEN.pow(30));
      case 9 -> random.nextDouble() * Math.pow(10, random.nextInt(40) - 20);
      case 10 -> random.nextFloat();
      case 11 -> (short) random.nextInt();
      case 12 -> 'x';
      case 13 -> new int[] {random.nextInt(), 2};
      case 14, 15 -> {
        Map<Object, Object> map = random.nextBoolean() ? new LinkedHashMap<>() : new HashMap<>();
        int size = random.nextInt(5);
        for (int i = 0; i < size; i++) {
          Object key =
              switch (random.nextInt(12)) {
                case 0 -> random.nextInt(100);
                case 1 -> random.nextInt(50) == 0 ? null : "k";
                default -> text(random);
              };
          map.put(key, value(random, depth + 1));
        }
        yield map;
      }
      default -> {
        List<Object> list = new ArrayList<>();
        int size = random.nextInt(5);
        for (int i = 0; i < size; i++) {
          list.add(value(random, depth + 1));
        }
        yield list;
      }
    };
  }

  private static String mapperText(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (Exception e) {
      return "refused";
    }
  }

  private static String mapperBytes(Object value) {
    try {
      return new String(
          MAPPER.writeValueAsBytes(value), java.nio.charset.StandardCharsets.ISO_8859_1);
    } catch (Exception e) {
      return "refused";
    }
  }

  private static String codecText(Object value) {
    try {
      return JsonCodec.write(value);
    } catch (IllegalStateException e) {
      return "refused";
    }
  }

  private static String codecBytes(Object value) {
    try {
      return new String(JsonCodec.writeBytes(value), java.nio.charset.StandardCharsets.ISO_8859_1);
    } catch (IllegalStateException e) {
      return "refused";
    }
  }

  @Test
  void writesWhatTheMapperWritesForRandomValues() {
    Random random = new Random(25);
    int refused = 0;
    for (int i = 0; i < 20_000; i++) {
      Object value = value(random, 0);
      List<Object> rows = new ArrayList<>();
      rows.add(value);
      Map<String, Object> answer = Map.of("output", Map.of("parameters", rows));
      String expected = mapperText(answer);
      assertThat(codecText(answer)).as("value %s", value).isEqualTo(expected);
      assertThat(codecBytes(answer)).as("value %s", value).isEqualTo(mapperBytes(answer));
      refused += expected.equals("refused") ? 1 : 0;
    }
    // The corpus reaches the mapper's own refusal (a null key), not only what it writes.
    assertThat(refused).isPositive();
  }

  private static String mapperText(com.fasterxml.jackson.databind.ObjectWriter writer, Object v) {
    try {
      return writer.writeValueAsString(v);
    } catch (Exception e) {
      return "refused";
    }
  }

  private static String codec(java.util.function.Supplier<String> write) {
    try {
      return write.get();
    } catch (IllegalStateException e) {
      return "refused";
    }
  }

  @Test
  void writesSortedAndIndentedAsTheMapperDoes() {
    var sorted =
        MAPPER.writer(
            com.fasterxml.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
    var pretty = MAPPER.writerWithDefaultPrettyPrinter();
    var prettySorted =
        pretty.with(com.fasterxml.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
    Random random = new Random(17);
    int maps = 0;
    for (int i = 0; i < 20_000; i++) {
      Object value = value(random, 0);
      Map<String, Object> answer = new HashMap<>();
      answer.put("zeta", value);
      answer.put("alpha", java.util.Collections.singletonList(value));
      answer.put("Mid", new java.util.TreeMap<>(Map.of("b", 1, "a", 2)));
      assertThat(codec(() -> JsonCodec.writeSorted(answer)))
          .as("value %s", value)
          .isEqualTo(mapperText(sorted, answer));
      assertThat(codec(() -> JsonCodec.writePretty(answer, false)))
          .as("value %s", value)
          .isEqualTo(mapperText(pretty, answer));
      assertThat(codec(() -> JsonCodec.writePretty(answer, true)))
          .as("value %s", value)
          .isEqualTo(mapperText(prettySorted, answer));
      maps += value instanceof Map<?, ?> ? 1 : 0;
    }
    assertThat(maps).isGreaterThan(1000);
  }

  @Test
  void writesHalfSurrogatesAsTheMapperDoes() {
    for (String text : List.of("\ud800", "a\udc00b", "\ud83d", "\ud83d\ude00\ud83d")) {
      assertThat(codecText(text)).isEqualTo(mapperText(text));
      assertThat(codecBytes(List.of(text))).isEqualTo(mapperBytes(List.of(text)));
    }
  }
}
