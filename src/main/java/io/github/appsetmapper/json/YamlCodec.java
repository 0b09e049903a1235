package io.github.appsetmapper.json;

import io.github.appsetmapper.text.Printable;
import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.parser.Parser;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.reader.UnicodeReader;

/**
 * Reads an upstream's YAML answer (a Helm repository's {@code index.yaml}) into the same plain data
 * as {@link JsonCodec}, under the same policy: a key twice in one map, a number beyond {@link
 * Numbers}' bounds, nesting deeper than {@value JsonCodec#MAX_DEPTH} are refused; and what is
 * YAML's own: a tag ({@code !!python/object}, {@code !foo}, {@code !!binary}) is refused, never
 * turned into a type; aliases may repeat at most {@value #MAX_REPEATED} values in all, merged ones
 * included (a "billion laughs" is refused, not expanded), and at most {@value
 * #MAX_COLLECTION_ALIASES} aliases may name a collection; one document only; a key must be a
 * scalar. Merge keys ({@code <<: *base}) are merged as Helm (Go's yaml v3) merges them.
 *
 * <p>Plain scalars are typed by the YAML 1.2 core schema, not SnakeYAML's YAML 1.1 resolver: {@code
 * yes}, {@code on}, {@code 2024-01-02}, {@code 1_000} and {@code 0:30} stay text; {@code
 * true}/{@code false}, {@code null}/{@code ~}/empty, decimal, {@code 0x} and {@code 0o} integers,
 * and decimals are typed. A decimal keeps its text ({@code 1.10} is the exact decimal 1.10, written
 * back as {@code 1.10}, never the double 1.1). {@code .inf} and {@code .nan}, which JSON cannot
 * hold, stay text.
 *
 * <p>The parse is SnakeYAML's low-level parser: its events become plain data directly ({@link
 * YamlBuilder}), with no node tree and no constructor, so no class is ever named by the document
 * and a 25 MB repository index costs little more than its data.
 */
public final class YamlCodec {
  /** How many values aliases may repeat, in all: far past real files, far short of a bomb. */
  static final int MAX_REPEATED = 100_000;

  /** SnakeYAML's own default: enough for anchors in real files. */
  static final int MAX_COLLECTION_ALIASES = 50;

  /**
   * The response cap of a {@code format: yaml} request, above the transport's 10 MiB: public Helm
   * repository indexes are 20 to 30 MB (every version of every chart). What it becomes is held
   * against the memory budget as any answer is.
   */
  public static final int MAX_BYTES = 64 * 1024 * 1024;

  /**
   * Characters read at most: the YAML response cap, as every character takes at least one byte. So
   * the parser never reads past what the transport let in.
   */
  public static final int MAX_CODE_POINTS = MAX_BYTES;

  private YamlCodec() {}

  /** Reads {@code yaml} and estimates the heap its data takes (for the memory budget). */
  public static JsonCodec.Measured measure(byte[] yaml) throws JsonRefusal {
    return measure(yaml, MAX_CODE_POINTS, Growth.NONE);
  }

  /**
   * As {@link #measure(byte[])}, telling {@code growth} what the document takes as it is built (its
   * {@link Growth.Stop} ends the read and passes through).
   */
  public static JsonCodec.Measured measure(byte[] yaml, Growth growth) throws JsonRefusal {
    return measure(yaml, MAX_CODE_POINTS, growth);
  }

  static JsonCodec.Measured measure(byte[] yaml, int codePoints) throws JsonRefusal {
    return measure(yaml, codePoints, Growth.NONE);
  }

  /**
   * As {@link #measure(byte[])}, reading at most {@code codePoints} characters. The block YAML Go
   * writes is read from its bytes ({@link BlockYamlReader}); anything else, and any refusal, is
   * read by SnakeYAML from the start, which answers exactly as if it alone had read it.
   */
  static JsonCodec.Measured measure(byte[] yaml, int codePoints, Growth growth) throws JsonRefusal {
    if (yaml.length <= codePoints) { // bytes are at least as many as characters
      JsonCodec.Measured fast = BlockYamlReader.read(yaml, growth);
      if (fast != null) {
        return fast;
      }
    }
    return measureWithSnakeYaml(yaml, codePoints, growth);
  }

  /** SnakeYAML's reading alone: the answer the fast path must equal (tests and bench/yaml). */
  static JsonCodec.Measured measureWithSnakeYaml(byte[] yaml, int codePoints) throws JsonRefusal {
    return measureWithSnakeYaml(yaml, codePoints, Growth.NONE);
  }

  private static JsonCodec.Measured measureWithSnakeYaml(byte[] yaml, int codePoints, Growth growth)
      throws JsonRefusal {
    LoaderOptions options = new LoaderOptions();
    options.setCodePointLimit(codePoints);
    YamlBuilder builder = new YamlBuilder(growth);
    try {
      ValueBoundReader reader =
          new ValueBoundReader(new UnicodeReader(new ByteArrayInputStream(yaml)));
      Parser parser = new ParserImpl(new StreamReader(reader), options);
      boolean document = false;
      for (Event event = parser.getEvent();
          !event.is(Event.ID.StreamEnd);
          event = parser.getEvent()) {
        if (event.getEndMark() != null) {
          reader.settledAt(event.getEndMark().getIndex());
        }
        if (event.is(Event.ID.DocumentStart)) {
          if (document) {
            throw new JsonRefusal(
                JsonRefusal.Kind.UNSUPPORTED,
                "holds more than one YAML document (one is read)",
                where(parser.peekEvent().getStartMark()));
          }
          document = true;
        } else {
          builder.accept(event);
        }
      }
      if (!document) {
        throw new JsonRefusal(JsonRefusal.Kind.SYNTAX, "is empty", null);
      }
    } catch (YAMLException e) {
      throw refusal(e, codePoints);
    } catch (NumberFormatException e) {
      // SnakeYAML's scanner decodes a \\x, \\u or \\U escape with Integer.parseInt unguarded: cut
      // short at the end ("\\x") or past an int ("\\UFFFFFFFF") it throws this, not a
      // YAMLException.
      throw new JsonRefusal(JsonRefusal.Kind.SYNTAX, ESCAPE, null);
    }
    return new JsonCodec.Measured(builder.document(), builder.bytes);
  }

  /** SnakeYAML's scanner fails on such an escape with NumberFormatException: named here. */
  public static final String ESCAPE =
      "is not valid YAML: a \\x, \\u or \\U escape in a double-quoted text is not a character";

  private static JsonRefusal refusal(YAMLException e, int codePoints) {
    String message = e.getMessage() == null ? "" : e.getMessage();
    if (e.getCause() instanceof ValueBoundReader.TooLong tooLong) {
      return new JsonRefusal(JsonRefusal.Kind.LIMIT, "holds " + tooLong.getMessage(), null);
    }
    if (e.getCause() instanceof java.nio.charset.CharacterCodingException) {
      // SnakeYAML's reader wraps the decoder's exception: say what is wrong, not its class name.
      return new JsonRefusal(
          JsonRefusal.Kind.SYNTAX, "is not valid YAML: its bytes are not UTF-8", null);
    }
    if (message.contains("document exceeds the limit")) {
      return new JsonRefusal(
          JsonRefusal.Kind.LIMIT, "is longer than " + codePoints + " characters", null);
    }
    if (e instanceof MarkedYAMLException marked) {
      String problem = marked.getProblem() == null ? "" : marked.getProblem().strip();
      return new JsonRefusal(
          JsonRefusal.Kind.SYNTAX,
          problem.isEmpty() ? "is not valid YAML" : "is not valid YAML: " + firstLine(problem),
          where(marked.getProblemMark()));
    }
    return new JsonRefusal(
        JsonRefusal.Kind.SYNTAX,
        message.isBlank() ? "is not valid YAML" : "is not valid YAML: " + firstLine(message),
        null);
  }

  static JsonRefusal tagRefusal(String tag, Mark mark) {
    return new JsonRefusal(
        JsonRefusal.Kind.UNSUPPORTED,
        "has the tag '"
            + Numbers.shorten(tag)
            + "' (tags are not read: write the value without it)",
        where(mark));
  }

  private static String firstLine(String text) {
    String line = text.lines().findFirst().orElse("").strip();
    return Printable.cut(line, 160);
  }

  static String where(Mark mark) {
    if (mark == null) {
      return null;
    }
    return "line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1);
  }

  /** The YAML 1.2 core schema (https://yaml.org/spec/1.2.2/#1023-core-schema). */
  static Object typed(String text, Mark mark) throws JsonRefusal {
    switch (text) {
      case "", "~", "null", "Null", "NULL" -> {
        return null;
      }
      case "true", "True", "TRUE" -> {
        return Boolean.TRUE;
      }
      case "false", "False", "FALSE" -> {
        return Boolean.FALSE;
      }
      default -> {}
    }
    if (!numeric(text.charAt(0))) {
      return text; // most of an index is text: its shape is not even looked at
    }
    try {
      switch (CoreNumber.shape(text)) {
        case DECIMAL -> {
          return Numbers.parse(text);
        }
        case OCTAL, HEX -> {
          String digits = text.substring(2);
          if (digits.length() > Numbers.MAX_DIGITS) {
            throw new Numbers.Refused("too many digits", true);
          }
          return Numbers.parse(new BigInteger(digits, text.charAt(1) == 'o' ? 8 : 16).toString());
        }
        case TEXT -> {}
      }
    } catch (Numbers.Refused e) {
      throw new JsonRefusal(
          JsonRefusal.Kind.NUMBER,
          "has a number beyond the bounds (" + Numbers.BOUNDS + ")",
          where(mark));
    }
    return text;
  }

  /** Whether a number of the core schema may start with {@code c}. */
  private static boolean numeric(char c) {
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.';
  }
}
