package io.github.appsetmapper.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Writes plain data (what the codec reads and the engine builds: maps with text keys, lists, text,
 * whole numbers, booleans, null) straight to the generator, and hands every other value to the
 * codec's mapper on the same generator, so the text is the mapper's to the byte. The mapper looked
 * up a serializer for each value and made a provider for each write: about half of an answer's JSON
 * time on a static getparams (bench/profile). Every value and key is shown to the write's {@link
 * WritePace} first, which may stop the write (the answer's deadline).
 */
final class PlainWriter {
  private PlainWriter() {}

  static void write(ObjectMapper mapper, JsonGenerator out, Object value, WritePace pace)
      throws IOException {
    pace.before(value);
    if (value instanceof String text) {
      out.writeString(text);
    } else if (value instanceof Map<?, ?> map && textKeys(map)) {
      out.writeStartObject(map);
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        pace.before(entry.getKey());
        out.writeFieldName((String) entry.getKey());
        write(mapper, out, entry.getValue(), pace);
      }
      out.writeEndObject();
    } else if (value instanceof List<?> list) {
      out.writeStartArray(list, list.size());
      for (Object item : list) {
        write(mapper, out, item, pace);
      }
      out.writeEndArray();
    } else if (value == null) {
      out.writeNull();
    } else if (value instanceof Integer number) {
      out.writeNumber(number);
    } else if (value instanceof Long number) {
      out.writeNumber(number);
    } else if (value instanceof Boolean bool) {
      out.writeBoolean(bool);
    } else {
      mapper.writeValue(out, value);
    }
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
