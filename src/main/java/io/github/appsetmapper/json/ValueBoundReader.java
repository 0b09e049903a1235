package io.github.appsetmapper.json;

import java.io.IOException;
import java.io.Reader;

/**
 * The reader under SnakeYAML's parser, refusing a single value (a scalar: one token) longer than
 * {@link #MAX_VALUE_CHARS}. SnakeYAML copies its whole unread window every 1,024 characters, so the
 * time and memory of one long scalar grow with its square: a 16 MiB scalar took a minute and a 63
 * MiB one ended the heap, past any deadline or budget (an outside tester's find). Characters handed
 * to the parser beyond the end of the last event it produced are what the current token holds (plus
 * the scanner's short look-ahead); the parse loop reports each event's end. The one bound of every
 * YAML read: upstream answers here, mapping and test files through {@code config.ValueLengthBound}.
 */
public final class ValueBoundReader extends Reader {
  /** The longest string anything else may hold (TextBody.MAX_CHARS), and some look-ahead. */
  public static final int MAX_VALUE_CHARS = TextBody.MAX_CHARS;

  private static final int LOOK_AHEAD = 64 * 1024;

  /** Thrown through SnakeYAML (which wraps it) when a value passes the bound. */
  public static final class TooLong extends IOException {
    TooLong() {
      super("a value longer than " + MAX_VALUE_CHARS + " characters");
    }
  }

  private final Reader in;
  private long delivered;
  private long settled;

  public ValueBoundReader(Reader in) {
    this.in = in;
  }

  /** The parser has produced an event ending at character {@code index}. */
  public void settledAt(long index) {
    settled = Math.max(settled, index);
  }

  /** How far the parser has settled: where the value being read starts, about. */
  public long settled() {
    return settled;
  }

  @Override
  public int read(char[] buffer, int offset, int length) throws IOException {
    if (delivered - settled > MAX_VALUE_CHARS + LOOK_AHEAD) {
      throw new TooLong();
    }
    int read = in.read(buffer, offset, length);
    if (read > 0) {
      delivered += read;
    }
    return read;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
