package io.github.appsetmapper.boundary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.appsetmapper.boundary.HostileUpstreams.Hostile;
import io.github.appsetmapper.testing.SecretForms;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The promises the boundary suite holds every surface to, whatever it answered: never a 2xx with
 * fewer rows than the upstream's complete data gives, and no secret byte in any derived form.
 * Particular messages are not asserted: they may change, the promises may not.
 */
public final class Promises {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Promises() {}

  /** (a): a 2xx carries exactly the complete rows; where none can be told, only a non-2xx. */
  public static void noShort2xx(String where, Hostile c, int status, String body) {
    if (status < 200 || status >= 300) {
      assertThat(status).as(where + ": an error is a 5xx or a 4xx: " + body).isBetween(400, 599);
      return;
    }
    List<Map<String, Object>> rows = rows(where, body);
    if (c.rows() != null) {
      assertThat(rows)
          .as(where + ": a 2xx must carry the upstream's complete rows")
          .isEqualTo(c.rows());
    } else if (c.count() >= 0) {
      assertThat(rows).as(where + ": a 2xx must carry every row").hasSize(c.count());
    } else {
      fail(where + ": answered " + status + " where only an error is right: " + cut(body));
    }
  }

  public static List<Map<String, Object>> rows(String where, String body) {
    try {
      JsonNode parameters = JSON.readTree(body).path("output").path("parameters");
      assertThat(parameters.isArray())
          .as(where + ": a 2xx holds output.parameters: " + cut(body))
          .isTrue();
      return JSON.convertValue(parameters, new TypeReference<List<Map<String, Object>>>() {});
    } catch (java.io.IOException e) {
      throw new AssertionError(where + ": a 2xx that is not JSON: " + cut(body), e);
    }
  }

  /** (c): no run of {@link SecretForms#PIECE} characters of any form of the secret, any case. */
  public static void noSecret(String where, String text) {
    List<String> found = new ArrayList<>(SecretForms.leaks(text, HostileUpstreams.SECRET));
    String lower = text.toLowerCase(Locale.ROOT);
    String secret = HostileUpstreams.SECRET.toLowerCase(Locale.ROOT);
    for (int i = 0; i + SecretForms.PIECE <= secret.length(); i++) {
      String piece = secret.substring(i, i + SecretForms.PIECE);
      if (lower.contains(piece)) {
        found.add(piece + " (any case)");
      }
    }
    if (!found.isEmpty()) {
      String piece = found.get(0).replace(" (any case)", "");
      String shown =
          text.lines()
              .filter(l -> l.toLowerCase(Locale.ROOT).contains(piece.toLowerCase(Locale.ROOT)))
              .map(Promises::cut)
              .findFirst()
              .orElse(cut(text));
      fail(where + " shows the secret (" + found + ") in: " + shown);
    }
  }

  public static String cut(String text) {
    return text.length() > 600 ? text.substring(0, 600) + "..." : text;
  }
}
