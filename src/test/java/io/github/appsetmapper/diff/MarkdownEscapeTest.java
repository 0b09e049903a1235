package io.github.appsetmapper.diff;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What a value in a pull-request comment must not become: a link, a mention, a reversed text. */
class MarkdownEscapeTest {
  @Test
  void referencesLinksStrikesAndBidiControlsAreShownNotObeyed() {
    String escaped =
        MarkdownReport.code("#1 owner/repo#2 https://evil.example ~~s~~ :+1: a\u202eb @x");
    assertThat(escaped)
        .doesNotContain("#1 ", "repo#2", "://", "~~", ":+1:", "\u202e", "@x")
        .contains("&#35;1", "repo&#35;2", "https&#58;//", "&#126;&#126;", "&#92;u202e", "&#64;x")
        .startsWith("<code>")
        .endsWith("</code>");
  }
}
