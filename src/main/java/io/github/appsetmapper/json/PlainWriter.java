package io.github.appsetmapper.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * Writes plain data (what the codec reads and the engine builds: maps with text keys, lists, text,
 * numbers, booleans, null) straight to a generator of the codec's factory, and hands every other
 * value to the codec's mapper on the same generator, so the text is the mapper's to the byte
 * (PlainWriterTest compares them on random data). The mapper looked up a serializer for each value
 * and made a provider for each write: about half of an answer's JSON time on a static getparams
 * (bench/profile); and plain data never needs it, so a server whose answers hold only plain data
 * starts without Jackson's databind (about 400 classes before the first answer). Every value and
 * key is shown to the write's {@link WritePace} first, which may stop the write (the answer's
 * deadline). With {@code sorted}, map entries go by key as {@code ORDER_MAP_ENTRIES_BY_KEYS} puts
 * them (a sorted map keeps its own order).
 */
final class PlainWriter {
  private PlainWriter() {}

  static void write(JsonGenerator out, Object value, WritePace pace, boolean sorted)
      throws IOException {
    pace.before(value);
    if (value instanceof String text) {
      out.writeString(text);
    } else if (value instanceof Map<?, ?> map && textKeys(map)) {
      out.writeStartObject(map);
      for (Map.Entry<?, ?> entry : sorted ? byKey(map) : map.entrySet()) {
        pace.before(entry.getKey());
        out.writeFieldName((String) entry.getKey());
        write(out, entry.getValue(), pace, sorted);
      }
      out.writeEndObject();
    } else if (value instanceof List<?> list) {
      out.writeStartArray(list, list.size());
      for (Object item : list) {
        write(out, item, pace, sorted);
      }
      out.writeEndArray();
    } else if (value == null) {
      out.writeNull();
    } else if (value instanceof Boolean bool) {
      out.writeBoolean(bool);
    } else if (!number(out, value)) {
      // No plain kind (a char, an array, a map with other keys): the mapper's, made when first
      // asked for.
      var mapper = Mappers.forGenerator(out);
      if (sorted) {
        mapper.writer(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).writeValue(out, value);
      } else {
        mapper.writeValue(out, value);
      }
    }
  }

  /** Writes a number as the mapper's serializer for its type does; false when not one of them. */
  private static boolean number(JsonGenerator out, Object value) throws IOException {
    if (value instanceof Integer number) {
      out.writeNumber(number);
    } else if (value instanceof Long number) {
      out.writeNumber(number);
    } else if (value instanceof BigDecimal number) {
      out.writeNumber(Numbers.plain(number)); // the codec's module: plain, never huge
    } else if (value instanceof BigInteger number) {
      out.writeNumber(number);
    } else if (value instanceof Double number) {
      out.writeNumber(number.doubleValue());
    } else if (value instanceof Float number) {
      out.writeNumber(number.floatValue());
    } else if (value instanceof Short number) {
      out.writeNumber(number.shortValue());
    } else if (value instanceof Byte number) {
      out.writeNumber(number.intValue());
    } else {
      return false;
    }
    return true;
  }

  private static Iterable<? extends Map.Entry<?, ?>> byKey(Map<?, ?> map) {
    if (map instanceof SortedMap<?, ?>) {
      return map.entrySet();
    }
    List<Map.Entry<?, ?>> entries = new ArrayList<>(map.entrySet());
    entries.sort((a, b) -> ((String) a.getKey()).compareTo((String) b.getKey()));
    return entries;
  }

  /** A map the mapper would write with keys of another kind (or a null key: its refusal) is its. */
  private static boolean textKeys(Map<?, ?> map) {
    for (Object key : map.keySet()) {
      if (!(key instanceof String)) {
        return false;
      }
    }
    return true;
  }
}
