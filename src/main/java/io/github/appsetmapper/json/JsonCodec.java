package io.github.appsetmapper.json;

import com.fasterxml.jackson.core.ErrorReportConfiguration;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.SegmentedStringWriter;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;

/**
 * The one JSON codec: every JSON this server reads (getparams and admin bodies, upstream answers,
 * token answers, {@code run --input-json}, test files) and writes goes through here, so the policy
 * is in one place. Reading refuses a key twice in one object, a number beyond {@link Numbers}'
 * bounds (checked on its text, before any conversion), nesting deeper than {@value #MAX_DEPTH} and
 * anything after the value; it gives plain data (LinkedHashMap, ArrayList, String,
 * Integer/Long/BigInteger, BigDecimal for every fraction or exponent, Boolean, null) and, on
 * request, an estimate of the heap that data takes. Writing keeps numbers plain ({@code 10000000},
 * not {@code 1E+7}) unless the plain form would be huge.
 */
public final class JsonCodec {
  /** Deeper documents are refused: every later walk of them (JsonPath, SpEL) recurses. */
  public static final int MAX_DEPTH = 500;

  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          // Jackson's messages quote no document text of their own: a token it cut would be a
          // secret's prefix the redactor can no longer match (an upstream may echo a token
          // anywhere). The one quote kept, a duplicate key, is kept whole (JsonRefusal).
          .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
          .errorReportConfiguration(
              ErrorReportConfiguration.builder()
                  .maxErrorTokenLength(0)
                  .maxRawContentLength(0)
                  .build())
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  // The digits and the exponent are checked by Numbers; this only keeps the
                  // parser from buffering an absurd number before that check.
                  .maxNumberLength(Numbers.MAX_DIGITS + 16)
                  .maxNestingDepth(MAX_DEPTH)
                  .build())
          .build();

  /**
   * {@link #FACTORY} writing UTF-8 as the text form's bytes: a pair as one character, no escape.
   */
  private static final JsonFactory UTF8 =
      FACTORY.rebuild().enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8).build();

  /** Heap estimate of parsed data, in bytes: documented in docs/operations.md. */
  static final int VALUE_BYTES = 16;

  static final int OBJECT_BYTES = 64;
  static final int MEMBER_BYTES = 32;
  static final int LIST_BYTES = 40;
  static final int STRING_BYTES = 40;
  static final int BIG_NUMBER_BYTES = 48;

  private JsonCodec() {}

  /** A document and the estimated heap its plain data takes. */
  public record Measured(Object document, long bytes) {}

  public static Object read(byte[] json) throws JsonRefusal {
    return measure(json).document();
  }

  public static Object read(String json) throws JsonRefusal {
    return read(json.getBytes(StandardCharsets.UTF_8));
  }

  /** Reads {@code json} and estimates the heap its data takes (for the memory budget). */
  public static Measured measure(byte[] json) throws JsonRefusal {
    return measure(json, Growth.NONE);
  }

  /**
   * As {@link #measure(byte[])}, telling {@code growth} what the document takes as it is built (its
   * {@link Growth.Stop} ends the read and passes through).
   */
  public static Measured measure(byte[] json, Growth growth) throws JsonRefusal {
    try (JsonParser parser = FACTORY.createParser(json)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        throw new JsonRefusal(JsonRefusal.Kind.SYNTAX, "is empty", null);
      }
      PlainBuilder builder = new PlainBuilder(growth);
      Object document = builder.build(parser, first);
      if (parser.nextToken() != null) {
        throw new JsonRefusal(
            JsonRefusal.Kind.SYNTAX,
            "has more after its JSON value",
            where(parser.currentTokenLocation()));
      }
      return new Measured(document, builder.bytes);
    } catch (JsonRefusal e) {
      throw e;
    } catch (StreamConstraintsException e) {
      throw new JsonRefusal(
          e.getOriginalMessage().startsWith("Number")
              ? JsonRefusal.Kind.NUMBER
              : JsonRefusal.Kind.LIMIT,
          e.getOriginalMessage().startsWith("Number")
              ? "has a number beyond the bounds (" + Numbers.BOUNDS + ")"
              : e.getOriginalMessage().startsWith("Document nesting depth")
                  ? "is nested deeper than " + MAX_DEPTH + " levels"
                  : "is beyond a size limit: " + e.getOriginalMessage(),
          where(e.getLocation()));
    } catch (JsonParseException e) {
      String original = e.getOriginalMessage();
      if (original != null && original.startsWith("Duplicate field ")) {
        String key = original.substring("Duplicate field ".length());
        if (key.length() >= 2 && key.startsWith("'") && key.endsWith("'")) {
          key = key.substring(1, key.length() - 1);
        }
        throw new JsonRefusal(
            JsonRefusal.Kind.DUPLICATE_KEY,
            "has the key '",
            key,
            "' twice in one object",
            where(e.getLocation()));
      }
      throw new JsonRefusal(JsonRefusal.Kind.SYNTAX, syntax(original), where(e.getLocation()));
    } catch (IOException e) {
      throw new JsonRefusal(JsonRefusal.Kind.SYNTAX, "could not be read", null);
    }
  }

  /**
   * Estimates what data this server built takes once written: its heap (as {@link #measure} counts
   * it) plus its JSON text twice (the text, and its bytes on the way out), a number's text as it
   * will be written ({@link WrittenNumbers}). For the memory budget of an answer's parameter maps.
   */
  public static long estimate(Object data) {
    if (data instanceof String text) {
      // The commonest parameter value, counted as the walk below counts it, without its queue.
      return VALUE_BYTES + 2 * 8 + STRING_BYTES + 3L * text.length();
    }
    long bytes = 0;
    Deque<Object> todo = new ArrayDeque<>();
    todo.push(data);
    int seen = 0;
    while (!todo.isEmpty() && seen++ < 1_000_000) {
      Object value = todo.pop();
      bytes += VALUE_BYTES + 2 * 8;
      if (value instanceof Map<?, ?> map) {
        bytes += OBJECT_BYTES;
        for (Map.Entry<?, ?> entry : map.entrySet()) {
          int key = String.valueOf(entry.getKey()).length();
          bytes += MEMBER_BYTES + STRING_BYTES + key + 2L * key;
          todo.push(entry.getValue() == null ? "" : entry.getValue());
        }
      } else if (value instanceof java.util.Collection<?> list) {
        bytes += LIST_BYTES;
        list.forEach(element -> todo.push(element == null ? "" : element));
      } else if (value instanceof String text) {
        bytes += STRING_BYTES + 3L * text.length();
      } else if (value instanceof Number number) {
        // Its text twice, as a string's (the text, and its bytes on the way out).
        bytes += BIG_NUMBER_BYTES + 2 * WrittenNumbers.length(number);
      } else {
        bytes += BIG_NUMBER_BYTES;
      }
    }
    return bytes;
  }

  /** {@link #read(byte[])} as a Jackson tree, for readers that walk one. */
  public static JsonNode tree(byte[] json) throws JsonRefusal {
    return Mappers.compact().valueToTree(read(json));
  }

  /** Plain data as a Jackson tree (data this server built, or read through this codec). */
  public static JsonNode tree(Object data) {
    return Mappers.compact().valueToTree(data);
  }

  /** Compact JSON text, as the mapper writes it ({@link PlainWriter}). */
  public static String write(Object value) {
    return write(value, WritePace.NONE);
  }

  /**
   * As {@link #write(Object)}, asking {@code pace} before each value (a number of thousands of
   * digits takes a millisecond to write: an answer of many is checked against its deadline as it is
   * written, not after).
   */
  public static String write(Object value, WritePace pace) {
    return text(value, pace, false, false);
  }

  /** Compact JSON in UTF-8, as the mapper writes it ({@link PlainWriter}). */
  public static byte[] writeBytes(Object value) {
    return writeBytes(FACTORY, value, WritePace.NONE);
  }

  /**
   * {@link #write(Object, WritePace)} as UTF-8 bytes, encoded as it is written, asking {@code pace}
   * before each value: the same text to the byte (a character beyond the BMP as itself, where
   * {@link #writeBytes(Object)} writes two escapes).
   */
  public static byte[] writeBytes(Object value, WritePace pace) {
    return writeBytes(UTF8, value, pace);
  }

  private static byte[] writeBytes(JsonFactory factory, Object value, WritePace pace) {
    BufferRecycler buffers = factory._getBufferRecycler();
    try (ByteArrayBuilder bytes = new ByteArrayBuilder(buffers)) {
      try (JsonGenerator out = factory.createGenerator(bytes)) {
        PlainWriter.write(out, value, pace, false);
      }
      return bytes.getClearAndRelease();
    } catch (IOException e) {
      throw new IllegalStateException("cannot write JSON", e);
    } finally {
      buffers.releaseToPool();
    }
  }

  /** Compact JSON text with map entries sorted by key: the same data always gives the same text. */
  public static String writeSorted(Object value) {
    return text(value, WritePace.NONE, false, true);
  }

  /**
   * Indented JSON text, as {@link #writePretty} unsorted, asking {@code pace} before each value.
   */
  public static String writePretty(Object value, WritePace pace) {
    return text(value, pace, true, false);
  }

  /** Indented JSON text; with {@code sorted}, map entries by key. */
  public static String writePretty(Object value, boolean sorted) {
    return text(value, WritePace.NONE, true, sorted);
  }

  private static String text(Object value, WritePace pace, boolean indent, boolean sorted) {
    BufferRecycler buffers = FACTORY._getBufferRecycler();
    try (SegmentedStringWriter text = new SegmentedStringWriter(buffers)) {
      try (JsonGenerator out = FACTORY.createGenerator(text)) {
        if (indent) {
          out.useDefaultPrettyPrinter(); // what INDENT_OUTPUT gives the mapper's generators
        }
        PlainWriter.write(out, value, pace, sorted);
      }
      return text.getAndClear();
    } catch (IOException e) {
      throw new IllegalStateException("cannot write JSON", e);
    } finally {
      buffers.releaseToPool();
    }
  }

  /**
   * A private copy of the reading mapper, for a library that needs one (JsonPath's Jackson
   * provider): the codec's own mappers are never handed out.
   */
  public static ObjectMapper mapperCopy() {
    return Mappers.compact().copy();
  }

  /** The reading and writing factory, for {@link Mappers}. */
  static JsonFactory factory() {
    return FACTORY;
  }

  static String where(JsonLocation location) {
    if (location == null || location.getLineNr() < 1) {
      return null;
    }
    return "line " + location.getLineNr() + ", column " + location.getColumnNr();
  }

  private static String syntax(String original) {
    if (original == null) {
      return "is not valid JSON";
    }
    String first = original.lines().findFirst().orElse("").strip();
    return first.isEmpty() ? "is not valid JSON" : "is not valid JSON: " + first;
  }

  /** How {@link #halfSurrogate}'s line starts ({@link Utf8#problem} starts it with "holds"). */
  static final String HALF_LEAD = "has a string holding";

  /**
   * What is wrong with {@code text} when it holds half of a surrogate pair (an escape such as
   * {@code \\ud800}, in JSON and in double-quoted YAML alike), or null: the one check of every
   * reader (JSON and YAML answers, mapping and test files).
   */
  public static String halfSurrogate(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return HALF_LEAD
            + " half of a surrogate pair (\\u"
            + Integer.toHexString(c)
            + " alone), which is not Unicode text";
      }
    }
    return null;
  }
}
