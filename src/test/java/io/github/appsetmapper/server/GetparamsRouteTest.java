package io.github.appsetmapper.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.undertow.util.PathTemplateMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The hand-written getparams match agrees with Undertow's own router on every path it takes: the
 * same template, the same name. A path it leaves to the router costs only speed.
 */
class GetparamsRouteTest {
  /** The POST routes of {@link Routes}, as the router holds them. */
  private static final List<String> POST_TEMPLATES =
      List.of(
          GetparamsRoute.TEMPLATE,
          "/api/v1/getparams.execute",
          "/mappings/{name}/api/v1/getparams.explain",
          "/mappings/{name}/guard/reset",
          "/mappings/{name}/cache/invalidate",
          "/mappings/{name}/shadow/api/v1/getparams.execute");

  private static final String[] PIECES = {
    "a",
    "fast",
    "x.y",
    ".",
    "..",
    "%2F",
    "%20",
    ";",
    ";a=b",
    "{name}",
    "*",
    "é",
    "😀",
    " ",
    "",
    "/",
    "//",
    "api",
    "v1",
    "getparams.execute",
    "shadow",
    "mappings",
    "?",
    "#",
    "\\",
    "-"
  };

  @Test
  void everyPathItTakesTheRouterGivesTheSameNameAndTemplate() {
    PathTemplateMatcher<String> router = new PathTemplateMatcher<>();
    POST_TEMPLATES.forEach(t -> router.add(t, t));
    List<String> paths = new ArrayList<>(fixed());
    Random random = new Random(42);
    for (int i = 0; i < 20_000; i++) {
      StringBuilder name = new StringBuilder();
      for (int k = random.nextInt(4); k >= 0; k--) {
        name.append(PIECES[random.nextInt(PIECES.length)]);
      }
      String[] shapes = {
        "/mappings/" + name + "/api/v1/getparams.execute",
        "/mappings/" + name + "/api/v1/getparams.execute/",
        "/mappings/" + name + "/shadow/api/v1/getparams.execute",
        "/mappings/" + name,
        "/" + name + "/api/v1/getparams.execute",
      };
      paths.add(shapes[random.nextInt(shapes.length)]);
    }
    int taken = 0;
    for (String path : paths) {
      String name = GetparamsRoute.name(path);
      if (name == null) {
        continue;
      }
      taken++;
      PathTemplateMatcher.PathMatchResult<String> match = router.match(path);
      assertThat(match).as(path).isNotNull();
      assertThat(match.getValue()).as(path).isEqualTo(GetparamsRoute.TEMPLATE);
      assertThat(match.getParameters())
          .as(path)
          .containsExactlyEntriesOf(java.util.Map.of("name", name));
    }
    assertThat(taken).as("paths the hand-written match took").isGreaterThan(1_000);
  }

  @Test
  void leavesToTheRouterWhatIsNotExactlyItsForm() {
    for (String path : fixed().subList(3, fixed().size())) {
      assertThat(GetparamsRoute.name(path)).as(path).isNull();
    }
    assertThat(GetparamsRoute.name("/mappings/fast/api/v1/getparams.execute")).isEqualTo("fast");
    assertThat(GetparamsRoute.name("/mappings/shadow/api/v1/getparams.execute"))
        .isEqualTo("shadow");
    assertThat(GetparamsRoute.name("/mappings/a.b/api/v1/getparams.execute")).isEqualTo("a.b");
  }

  private static List<String> fixed() {
    return List.of(
        "/mappings/fast/api/v1/getparams.execute",
        "/mappings/shadow/api/v1/getparams.execute",
        "/mappings/a.b/api/v1/getparams.execute",
        "/mappings//api/v1/getparams.execute",
        "/mappings/a?b/api/v1/getparams.execute",
        "/mappings/?/api/v1/getparams.execute",
        "/mappings/api/v1/getparams.execute",
        "/mappings/fast/api/v1/getparams.execute/",
        "/mappings/a/b/api/v1/getparams.execute",
        "/mappings/fast/shadow/api/v1/getparams.execute",
        "/mappings/fast/api/v1/getparams.explain",
        "/api/v1/getparams.execute",
        "/mappings/",
        "/mappings",
        "");
  }
}
