package io.github.appsetmapper.engine;

import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.json.JsonRefusal;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import java.io.IOException;

/**
 * Reads a body outside a listing's {@link Page}: a login answer (strict JSON). Error answers are
 * read by {@link UpstreamWords}.
 */
final class ResponseBodies {
  private ResponseBodies() {}

  /**
   * The body as JSON; malformed or empty is an error naming the problem (a body that is not JSON by
   * its status and Content-Type: {@link NotJson#unquoted}).
   */
  static Object json(UpstreamResponse response) throws IOException {
    if (response.body().length == 0) {
      throw new IOException("the answer has an empty body where JSON was expected");
    }
    try {
      return JsonCodec.read(response.body());
    } catch (JsonRefusal e) {
      // A sign-in page answered 200: said so by its status and type, its text never quoted.
      throw new IOException(
          e.kind() == JsonRefusal.Kind.SYNTAX ? NotJson.unquoted(response) : refusal(e), e);
    }
  }

  /** Why the codec refused an answer, as the end of an error line. */
  static String refusal(JsonRefusal e) {
    return refusal(e, java.util.function.UnaryOperator.identity());
  }

  /** {@link #refusal(JsonRefusal)}, the answer's text it quotes through {@code excerpt}. */
  static String refusal(JsonRefusal e, java.util.function.UnaryOperator<String> excerpt) {
    return e.kind() == JsonRefusal.Kind.SYNTAX
        ? "the answer is not valid JSON"
        : "the answer " + e.located(excerpt);
  }
}
