package io.github.appsetmapper.config;

import io.github.appsetmapper.json.ValueBoundReader;
import java.io.IOException;
import java.io.Reader;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.parser.Parser;

/**
 * The bound on one value (a scalar: one token) of a YAML file: {@link ValueBoundReader}, the bound
 * upstream YAML answers have, counting; here what a file adds: the line the value starts on.
 * SnakeYAML copies its whole unread window every 1,024 characters, so one long scalar costs the
 * square of its length: a 10 MB recorded body inline in a test file took 39 s to read, and a test
 * file may hold 64 MiB.
 */
final class ValueLengthBound extends Reader {
  static final int MAX_VALUE_CHARS = ValueBoundReader.MAX_VALUE_CHARS;

  /** A value past the bound, at the line it starts on. */
  static final class TooLong extends MarkedYAMLException {
    TooLong(Mark at) {
      super(
          null,
          null,
          "a value longer than "
              + MAX_VALUE_CHARS
              + " characters (YAML reads one value in time that grows with the square of its"
              + " length)",
          at);
    }

    /** The line the value starts on, from 1. */
    int line() {
      return getProblemMark().getLine() + 1;
    }
  }

  private final String content;
  private final ValueBoundReader in;

  ValueLengthBound(String content, Reader in) {
    this.content = content;
    this.in = new ValueBoundReader(in);
  }

  /** The parser over {@code parser}'s events, telling this reader where each one ended. */
  Parser settling(Parser parser) {
    return new Parser() {
      @Override
      public boolean checkEvent(Event.ID choice) {
        return parser.checkEvent(choice);
      }

      @Override
      public Event peekEvent() {
        return parser.peekEvent();
      }

      @Override
      public Event getEvent() {
        Event event = parser.getEvent();
        if (event.getEndMark() != null) {
          in.settledAt(event.getEndMark().getIndex());
        }
        return event;
      }
    };
  }

  @Override
  public int read(char[] buffer, int offset, int length) throws IOException {
    return in.read(buffer, offset, length);
  }

  /** Where the value that passed the bound starts: the first character after the last event. */
  TooLong tooLong() {
    int index = (int) Math.min(in.settled(), content.length());
    while (index < content.length() && " \t\r\n:,-?[{".indexOf(content.charAt(index)) >= 0) {
      index++;
    }
    int line = 0;
    int lineStart = 0;
    for (int i = 0; i < index; i++) {
      if (content.charAt(i) == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    return new TooLong(new Mark("file", index, line, index - lineStart, new int[0], 0));
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
