package io.github.appsetmapper.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.upstream.auth.Challenges;
import io.github.appsetmapper.upstream.auth.Challenges.Challenge;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChallengesTest {
  @Test
  void dockerHubsDocumentedHeaderKeepsTheCommaInsideTheQuotedScope() {
    List<Challenge> parsed =
        Challenges.parse(
            List.of(
                "Bearer realm=\"https://auth.docker.io/token\",service=\"registry.docker.io\","
                    + "scope=\"repository:samalba/my-app:pull,push\""));
    assertThat(parsed)
        .containsExactly(
            new Challenge(
                "bearer",
                Map.of(
                    "realm", "https://auth.docker.io/token",
                    "service", "registry.docker.io",
                    "scope", "repository:samalba/my-app:pull,push"),
                null));
  }

  @Test
  void severalChallengesCaseSpacesEscapesAndToken68() {
    List<Challenge> parsed =
        Challenges.parse(
            List.of(
                "Basic realm=\"Registry \\\"Realm\\\"\", BEARER Realm = https://ghcr.io/token ,"
                    + " service=ghcr.io , scope=\"repository:a/b:pull\"",
                "Negotiate abc123==, Basic"));
    assertThat(parsed)
        .containsExactly(
            new Challenge("basic", Map.of("realm", "Registry \"Realm\""), null),
            new Challenge(
                "bearer",
                Map.of(
                    "realm", "https://ghcr.io/token",
                    "service", "ghcr.io",
                    "scope", "repository:a/b:pull"),
                null),
            new Challenge("negotiate", Map.of(), "abc123=="),
            new Challenge("basic", Map.of(), null));
    assertThat(Challenges.find(parsed, "Bearer").param("REALM")).isEqualTo("https://ghcr.io/token");
  }

  @Test
  void garbageGivesWhatCanBeRead() {
    assertThat(Challenges.parse(List.of("", ",,,", "Bearer realm=\"unterminated")))
        .containsExactly(new Challenge("bearer", Map.of("realm", "unterminated"), null));
  }
}
