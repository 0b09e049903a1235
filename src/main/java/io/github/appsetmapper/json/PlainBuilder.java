package io.github.appsetmapper.json;

import static io.github.appsetmapper.json.JsonCodec.BIG_NUMBER_BYTES;
import static io.github.appsetmapper.json.JsonCodec.LIST_BYTES;
import static io.github.appsetmapper.json.JsonCodec.MEMBER_BYTES;
import static io.github.appsetmapper.json.JsonCodec.OBJECT_BYTES;
import static io.github.appsetmapper.json.JsonCodec.STRING_BYTES;
import static io.github.appsetmapper.json.JsonCodec.VALUE_BYTES;
import static io.github.appsetmapper.json.JsonCodec.halfSurrogate;
import static io.github.appsetmapper.json.JsonCodec.where;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds plain data from tokens without recursion, counting the estimated heap. */
final class PlainBuilder {
  long bytes;
  private final Growth.Steps growth;

  PlainBuilder(Growth growth) {
    this.growth = new Growth.Steps(growth);
  }

  private static final class Frame {
    final Map<String, Object> object;
    final List<Object> list;
    String key;

    Frame(Map<String, Object> object, List<Object> list) {
      this.object = object;
      this.list = list;
    }

    void add(Object value) {
      if (object != null) {
        object.put(key, value);
      } else {
        list.add(value);
      }
    }
  }

  Object build(JsonParser parser, JsonToken first) throws IOException {
    Deque<Frame> stack = new ArrayDeque<>();
    JsonToken token = first;
    while (true) {
      growth.at(bytes);
      Object done;
      switch (token) {
        case START_OBJECT -> {
          bytes += VALUE_BYTES + OBJECT_BYTES;
          stack.push(new Frame(new LinkedHashMap<>(), null));
          token = parser.nextToken();
          continue;
        }
        case START_ARRAY -> {
          bytes += VALUE_BYTES + LIST_BYTES;
          stack.push(new Frame(null, new ArrayList<>()));
          token = parser.nextToken();
          continue;
        }
        case FIELD_NAME -> {
          String key = parser.currentName();
          unicode(key, parser);
          bytes += MEMBER_BYTES + STRING_BYTES + key.length();
          stack.peek().key = key;
          token = parser.nextToken();
          continue;
        }
        case END_OBJECT -> done = stack.pop().object;
        case END_ARRAY -> {
          Frame frame = stack.pop();
          ((ArrayList<Object>) frame.list).trimToSize();
          done = frame.list;
        }
        default -> done = scalar(parser, token);
      }
      if (stack.isEmpty()) {
        return done;
      }
      stack.peek().add(done);
      token = parser.nextToken();
    }
  }

  /**
   * JSON's {@code \\ud800} escapes can write half of a surrogate pair, which is no character: it
   * has no UTF-8 form, so a URL, a header, a log line or the answer would carry a '?' or fail to be
   * written. Refused where it is read, as any other text that is not text.
   */
  private static void unicode(String text, JsonParser parser) throws JsonRefusal {
    String problem = halfSurrogate(text);
    if (problem != null) {
      throw new JsonRefusal(JsonRefusal.Kind.TEXT, problem, where(parser.currentTokenLocation()));
    }
  }

  private Object scalar(JsonParser parser, JsonToken token) throws IOException {
    bytes += VALUE_BYTES;
    switch (token) {
      case VALUE_STRING -> {
        String text = parser.getText();
        unicode(text, parser);
        bytes += STRING_BYTES + text.length();
        return text;
      }
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
        JsonParser.NumberType type = parser.getNumberType();
        if (type == JsonParser.NumberType.INT) {
          return parser.getIntValue();
        }
        if (type == JsonParser.NumberType.LONG) {
          bytes += BIG_NUMBER_BYTES;
          return parser.getLongValue();
        }
        // The text is checked before anything converts it: its digits and its exponent.
        String text = parser.getText();
        try {
          Number number = Numbers.parse(text);
          bytes += BIG_NUMBER_BYTES + text.length();
          return number;
        } catch (Numbers.Refused e) {
          throw new JsonRefusal(
              JsonRefusal.Kind.NUMBER,
              "has a number beyond the bounds (" + Numbers.BOUNDS + ")",
              where(parser.currentTokenLocation()));
        }
      }
      case VALUE_TRUE -> {
        return Boolean.TRUE;
      }
      case VALUE_FALSE -> {
        return Boolean.FALSE;
      }
      case VALUE_NULL -> {
        return null;
      }
      default ->
          throw new JsonRefusal(
              JsonRefusal.Kind.SYNTAX,
              "is not valid JSON: unexpected " + token,
              where(parser.currentTokenLocation()));
    }
  }
}
