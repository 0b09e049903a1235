package io.github.appsetmapper.server;

import io.github.appsetmapper.engine.AnswerBody;
import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.json.Utf8;
import java.util.List;
import java.util.Map;

/** Wire JSON of the server's answers, written by the one {@link JsonCodec}. */
public final class Json {
  private Json() {}

  /**
   * {@code {"output":{"parameters":[...]}}}, exactly what Argo CD reads ({@link AnswerBody}; a
   * getparams' is written by the engine, within its deadline).
   */
  public static String answer(List<Map<String, Object>> parameters) {
    return AnswerBody.of(parameters);
  }

  public static String error(String message) {
    // A message may quote a value holding half of a surrogate pair: shown as its escape, not '?'.
    return write(Map.of("error", Utf8.shown(message)));
  }

  public static String write(Object value) {
    return JsonCodec.write(value);
  }
}
