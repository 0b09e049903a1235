package io.github.appsetmapper.expr;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.github.appsetmapper.json.JsonCodec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class SlugTest {

  private static final int ARGO_MAX_LENGTH = 50;
  private static final Path FIXTURES = Path.of("src/test/resources/fixtures/slug");

  // Argo CD applicationset/generators/pull_request_test.go, TestPullRequestGithubGenerateParams:
  // branch -> branch_slug and target_branch -> target_branch_slug.
  static Stream<Arguments> argoPullRequestTest() {
    return Stream.of(
        arguments("branch1", "branch1"),
        arguments("master", "master"),
        arguments("a-very-short-sha", "a-very-short-sha"),
        arguments(
            "feat/areally+long_pull_request_name_to_test_argo_slugification_and_branch_name"
                + "_shortening_feature",
            "feat-areally-long-pull-request-name-to-test-argo"),
        arguments(
            "feat/anotherreally+long_pull_request_name_to_test_argo_slugification_and_branch"
                + "_name_shortening_feature",
            "feat-anotherreally-long-pull-request-name-to-test"));
  }

  @ParameterizedTest
  @MethodSource("argoPullRequestTest")
  void branchSlugMatchesArgoTests(String branch, String expected) {
    assertThat(Slug.slug(branch, ARGO_MAX_LENGTH)).isEqualTo(expected);
  }

  // gosimple/slug slug_test.go: TestSlugMake (MaxLength 0), the "en"/lowercase rows of
  // TestSlugMakeLang, and TestSlugMakeSmartTruncate. Rows with '_' expect Argo's CustomSub
  // "_" -> "-" (gosimple alone keeps '_': "test_slug" stays "test_slug").
  static Stream<Arguments> gosimpleSlugTest() {
    return Stream.of(
        arguments("DOBROSLAWZYBORT", 0, "dobroslawzybort"),
        arguments("Dobroslaw Zybort", 0, "dobroslaw-zybort"),
        arguments("  Dobroslaw     Zybort  ?", 0, "dobroslaw-zybort"),
        arguments("Dobrosław Żybort", 0, "dobroslaw-zybort"),
        arguments("Ala ma 6 kotów.", 0, "ala-ma-6-kotow"),
        arguments("áÁàÀãÃâÂäÄąĄą̊Ą̊", 0, "aaaaaaaaaaaaaa"),
        arguments("ćĆĉĈçÇčČ", 0, "cccccccc"),
        arguments("éÉèÈẽẼêÊëËęĘěĚ", 0, "eeeeeeeeeeeeee"),
        arguments("íÍìÌĩĨîÎïÏįĮ", 0, "iiiiiiiiiiii"),
        arguments("łŁ", 0, "ll"),
        arguments("ńŃ", 0, "nn"),
        arguments("óÓòÒõÕôÔöÖǫǪǭǬø", 0, "ooooooooooooooo"),
        arguments("śŚšŠ", 0, "ssss"),
        arguments("řŘ", 0, "rr"),
        arguments("ťŤ", 0, "tt"),
        arguments("úÚùÙũŨûÛüÜųŲůŮ", 0, "uuuuuuuuuuuuuu"),
        arguments("y̨Y̨ýÝ", 0, "yyyy"),
        arguments("źŹżŹžŽ", 0, "zzzzzz"),
        arguments("·/,:;`˜'\"", 0, ""),
        arguments("2000–2013", 0, "2000-2013"),
        arguments("style—not", 0, "style-not"),
        arguments("test_slug", 0, "test-slug"), // gosimple alone: "test_slug"
        arguments("_test_slug_", 0, "test-slug"), // gosimple alone: "test_slug"
        arguments("-test-slug-", 0, "test-slug"),
        arguments("Æ", 0, "ae"),
        arguments("Ich heiße", 0, "ich-heisse"),
        arguments("𐀀", 0, ""), // Bug #53
        // gosimple alone keeps the '_': "5-at-4-3-2-and-1-and-2-3-at-4-_-5"
        arguments("% 5 @ 4 $ 3 / 2 & 1 & 2 # 3 @ 4 _ 5", 0, "5-at-4-3-2-and-1-and-2-3-at-4-5"),
        arguments("This & that", 0, "this-and-that"),
        arguments("fácil €", 0, "facil-eu"),
        arguments("smile ☺", 0, "smile"),
        arguments("Hellö Wörld хелло ворлд", 0, "hello-world-khello-vorld"),
        arguments("\"C'est déjà l’été.\"", 0, "cest-deja-lete"),
        arguments("jaja---lol-méméméoo--a", 0, "jaja-lol-mememeoo-a"),
        arguments("Đanković & Kožušček", 0, "dankovic-and-kozuscek"),
        // TestSlugMakeLang, lang "en" (and unknown "test", which falls back to "en")
        arguments("äÄäöÖöüÜü", 0, "aaaooouuu"),
        arguments("1\"2'3’4‒5–6—7―8", 0, "1234-5-6-7-8"),
        // TestSlugMakeSmartTruncate
        arguments("DOBROSLAWZYBORT", 100, "dobroslawzybort"),
        arguments("Dobroslaw Zybort", 100, "dobroslaw-zybort"),
        arguments("Dobroslaw Zybort", 12, "dobroslaw"),
        arguments("Dobroslaw Zybort", 15, "dobroslaw"),
        arguments("Dobroslaw Zybort", 16, "dobroslaw-zybort"),
        arguments("  Dobroslaw     Zybort  ?", 12, "dobroslaw"),
        arguments("Ala ma 6 kotów.", 10, "ala-ma-6"),
        arguments("Dobrosław Żybort", 5, "dobro"));
  }

  @ParameterizedTest
  @MethodSource("gosimpleSlugTest")
  void slugMatchesGosimpleTests(String text, int maxLength, String expected) {
    assertThat(Slug.slug(text, maxLength)).isEqualTo(expected);
  }

  // Outputs of the real pipeline, not of docs: gosimple/slug slug.go Make() run under Go with
  // Argo's settings (MaxLength per row, CustomSub "_" -> "-") and the gosimple/unidecode v1.0.1
  // table (decoded from its compressed table.go; "€" from slug_test.go).
  static Stream<Arguments> goSlugWithArgoSettings() {
    return Stream.of(
        // empty and separator-only
        arguments("", 50, ""),
        arguments("   ", 50, ""),
        arguments("///", 50, ""),
        arguments("_", 50, ""),
        // underscores, leading/trailing dashes
        arguments("__init__", 50, "init"),
        arguments("snake_case_branch", 50, "snake-case-branch"),
        arguments("feature/JIRA-123_add_new_thing", 50, "feature-jira-123-add-new-thing"),
        arguments("--feature--", 50, "feature"),
        arguments("-/-fix-/-", 50, "fix"),
        arguments("Feature/UPPER_and_Mixed", 50, "feature-upper-and-mixed"),
        // '&' and '@' become words with no separator; quotes are deleted, not separators
        arguments("tom&jerry", 50, "tomandjerry"),
        arguments("R&D/new-api", 50, "randd-new-api"),
        arguments("@octocat/patch-1", 50, "atoctocat-patch-1"),
        arguments("it's-don’t", 50, "its-dont"),
        // punctuation-heavy
        arguments("release/v1.2.3", 50, "release-v1-2-3"),
        arguments("v1.0.0-rc.1+build.5", 50, "v1-0-0-rc-1-build-5"),
        arguments("hotfix/(urgent)!!fix*now", 50, "hotfix-urgent-fix-now"),
        arguments(
            "user/jdoe/PROJ-42: fix 'quotes' & \"double\"",
            50,
            "user-jdoe-proj-42-fix-quotes-and-double"),
        arguments(
            "dependabot/npm_and_yarn/lodash-4.17.21", 50, "dependabot-npm-and-yarn-lodash-4-17-21"),
        arguments(
            "renovate/org.springframework.boot-spring-boot-3.x",
            50,
            "renovate-org-springframework-boot-spring-boot-3-x"),
        // Unicode
        arguments("feature/Größe-ändern", 50, "feature-grosse-andern"),
        arguments("fix/Ærøskøbing-Þór", 50, "fix-aeroskobing-thor"),
        arguments("Đorđe/łódź-żółć", 50, "dorde-lodz-zolc"),
        arguments("naïve café", 50, "naive-cafe"),
        arguments("Ab¼c", 50, "ab1-4c"),
        arguments("a\u00a0b\u00adc", 50, "a-bc"), // no-break space separates, soft hyphen vanishes
        arguments("a\u0301\u0308-mark", 50, "a-mark"),
        arguments("bugfix/ошибка-в-логине", 50, "bugfix-oshibka-v-logine"),
        arguments("объект", 50, "ob-ekt"), // hard sign is "'" in unidecode, so a separator
        arguments("Ж_ж", 50, "zh-zh"),
        arguments("ґанок-їжак", 50, "g-anok-yizhak"), // unidecode: ґ -> "g'"
        arguments("Ελληνικά-κλαδιά", 50, "ellenika-kladia"),
        arguments("ŋ-Ŋ", 50, "ng-ng"),
        arguments("aˍb", 50, "a_b"), // unidecode emits '_' after Argo's "_" -> "-" already ran
        arguments("ˍabcˍ", 50, "abc"),
        arguments("fix 🐛 bug", 50, "fix-bug"), // outside the BMP: dropped
        // the 50 limit: exactly 50, 51, a dash at index 50 / 49, no dash at all
        arguments("a".repeat(50), 50, "a".repeat(50)),
        arguments("a".repeat(51), 50, "a".repeat(50)),
        arguments("x".repeat(50) + "-" + "y".repeat(9), 50, "x".repeat(50)),
        arguments("x".repeat(49) + "-" + "y".repeat(9), 50, "x".repeat(49)),
        arguments("abc-" + "d".repeat(60), 50, "abc"),
        arguments(
            "feature/this-is-a-very-long-branch-name-that-exceeds-the-limit",
            50,
            "feature-this-is-a-very-long-branch-name-that"),
        arguments(
            "feature/this___is///a   very...long branch name that exceeds",
            50,
            "feature-this-is-a-very-long-branch-name-that"),
        arguments("щщщщщщщщщщщщщщ-щ", 50, "shchshchshchshchshchshchshchshchshchshchshchshchsh"),
        arguments(
            "Ich heiße Dobrosław Żybort und wohne in München, Österreich",
            50,
            "ich-heisse-dobroslaw-zybort-und-wohne-in-munchen"),
        arguments(
            "feature/this-is-a-very-long-branch-name-that-exceeds-the-limit",
            0,
            "feature-this-is-a-very-long-branch-name-that-exceeds-the-limit"),
        arguments("a-b", 1, "a"),
        arguments("ab", 1, "a"));
  }

  @ParameterizedTest
  @MethodSource("goSlugWithArgoSettings")
  void slugMatchesGoImplementation(String text, int maxLength, String expected) {
    assertThat(Slug.slug(text, maxLength)).isEqualTo(expected);
  }

  // gosimple/slug slug_test.go TestSlugMake rows that need the tables beyond Latin, Greek and
  // Cyrillic; "ĂăÂâÎîȘșȚț" needs Latin Extended-B. A CJK syllable transliterates with a space
  // after it ("Ying "), none before: "fix影師bug" gives "fixying-shi-bug", in Argo CD too.
  @ParameterizedTest
  @CsvSource({"影師, ying-shi", "fix影師bug, fixying-shi-bug", "ĂăÂâÎîȘșȚț, aaaaiisstt"})
  void everyScriptIsTransliterated(String text, String expected) {
    assertThat(Slug.slug(text, ARGO_MAX_LENGTH)).isEqualTo(expected);
  }

  // The 44 vectors of src/test/resources/fixtures/slug: gosimple/slug v1.15.0 with unidecode
  // v1.0.1 run in Go as Argo CD configures it (its README says how).
  static Stream<Arguments> gosimpleVectors() throws IOException {
    List<?> vectors =
        (List<?>) JsonCodec.read(Files.readAllBytes(FIXTURES.resolve("branch-slug-vectors.json")));
    return vectors.stream()
        .map(Map.class::cast)
        .map(v -> arguments(v.get("branch"), v.get("branch_slug")));
  }

  @Test
  void theVectorFileHoldsAll44() throws IOException {
    assertThat(gosimpleVectors()).hasSize(44);
  }

  @ParameterizedTest
  @MethodSource("gosimpleVectors")
  void branchSlugMatchesVectorsComputedByGosimple(String branch, String expected) {
    assertThat(Slug.slug(branch, ARGO_MAX_LENGTH)).isEqualTo(expected);
  }

  /**
   * The whole table, not a sample: the SHA-256 of gosimple/unidecode v1.0.1's transliterations of
   * U+0080..U+FFFF, each followed by a line feed ("" where it has no entry), computed from its
   * table.go by decoding it as its decode.go does.
   */
  @Test
  void transliterationTableIsGosimplesCodePointByCodePoint() throws Exception {
    MessageDigest digest = MessageDigest.getInstance("SHA-256");
    for (int codePoint = 0x80; codePoint <= 0xFFFF; codePoint++) {
      digest.update((UnidecodeTable.transliterate(codePoint) + "\n").getBytes(UTF_8));
    }
    assertThat(HexFormat.of().formatHex(digest.digest()))
        .isEqualTo("d5e0fb11ab35d1f76dc1f44bd7b8bde0ff5029be04b54d610f1e5b85363e69df");
  }

  // A few of the corrections junidecode needs, spelled out (the digest above covers all).
  @ParameterizedTest
  @CsvSource({
    "ブランチ, buranchi", // Hepburn "chi", Text::Unidecode "ti"
    "しつ, shitsu",
    "™x, x", // gosimple has no entry for U+2122, Text::Unidecode "(TM)"
    "€, eu", // "EU", Text::Unidecode "EUR"
    "ⓐⓑ, ab", // circled letters: gosimple spells them, Text::Unidecode does not
    "aᤀb, ab", // no entry: nothing, where Text::Unidecode's "[?]" would separate
    "一, ''" // gosimple's "[?] ", not "Yi "
  })
  void junidecodeIsCorrectedWhereGosimpleDiffers(String text, String expected) {
    assertThat(Slug.slug(text, ARGO_MAX_LENGTH)).isEqualTo(expected);
  }

  // The issue's own examples.
  @ParameterizedTest
  @CsvSource({"ブランチ, buranchi", "功能/登录, gong-neng-deng-lu"})
  void issueExamples(String branch, String expected) {
    assertThat(Slug.slug(branch, ARGO_MAX_LENGTH)).isEqualTo(expected);
  }

  /**
   * Properties over random names mixing scripts: the slug has at most {@code max} characters of
   * {@code [a-z0-9_-]}, no dash pair, no dash or underscore first, no dash last; without an
   * underscore (which only a few symbols give, as in Argo CD) it is empty or an RFC 1123 label.
   * Stopping early gives what the whole name would: the cut of the unlimited slug.
   */
  @Test
  void slugIsAlwaysALabelWithinMax() {
    Random random = new Random(12);
    int[][] ranges = {
      {0x20, 0x7E},
      {0xA0, 0x24F},
      {0x370, 0x3FF},
      {0x400, 0x4FF},
      {0x590, 0x6FF},
      {0x900, 0xDFF},
      {0xE00, 0xEFF},
      {0x1100, 0x11FF},
      {0x2000, 0x2BFF},
      {0x3000, 0x30FF},
      {0x4E00, 0x9FFF},
      {0xAC00, 0xD7A3},
      {0xF900, 0xFFFF},
      {0x1F300, 0x1F6FF},
      {'_', '_'},
      {'-', '-'}
    };
    Pattern label = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    for (int n = 0; n < 20_000; n++) {
      StringBuilder name = new StringBuilder();
      int length = random.nextInt(90);
      for (int i = 0; i < length; i++) {
        int[] range = ranges[random.nextInt(ranges.length)];
        name.appendCodePoint(range[0] + random.nextInt(range[1] - range[0] + 1));
      }
      int max = n % 4 == 0 ? 1 + random.nextInt(70) : ARGO_MAX_LENGTH;
      String slug = Slug.slug(name.toString(), max);
      String unlimited = Slug.slug(name.toString(), 0);
      assertThat(slug)
          .as("slug of %s", name)
          .hasSizeLessThanOrEqualTo(max)
          .matches("[a-z0-9_-]*")
          .doesNotContain("--")
          .doesNotStartWith("-")
          .doesNotStartWith("_")
          .doesNotEndWith("-")
          .isEqualTo(smartTruncate(unlimited, max));
      if (!slug.contains("_") && !slug.isEmpty()) {
        assertThat(label.matcher(slug).matches()).as("label %s of %s", slug, name).isTrue();
      }
    }
  }

  /** slug.go's smartTruncate, applied to the unlimited slug. */
  private static String smartTruncate(String text, int max) {
    if (text.length() <= max) {
      return text;
    }
    for (int i = max; i >= 0; i--) {
      if (text.charAt(i) == '-') {
        return text.substring(0, i);
      }
    }
    return text.substring(0, max);
  }

  @Test
  void aLongNameIsReadOnlyUntilTheCutIsDecided() {
    String huge = "feature/" + "影師-".repeat(2_000_000);
    assertThat(Slug.slug(huge, ARGO_MAX_LENGTH))
        .isEqualTo("feature-ying-shi-ying-shi-ying-shi-ying-shi-ying");
  }

  @Test
  void slugRejectsNull() {
    assertThatThrownBy(() -> Slug.slug(null, ARGO_MAX_LENGTH))
        .isInstanceOf(NullPointerException.class);
  }

  // Argo CD pull_request_test.go: head_short_sha (8) and head_short_sha_7 (7); pull_request.go
  // slices HeadSHA[:min(len(HeadSHA), n)], so shorter SHAs come back whole ("abcd").
  @ParameterizedTest
  @CsvSource({
    "089d92cbf9ff857a39e6feccd32798ca700fb958, 8, 089d92cb",
    "089d92cbf9ff857a39e6feccd32798ca700fb958, 7, 089d92c",
    "9b34ff5bd418e57d58891eb0aa0728043ca1e8be, 8, 9b34ff5b",
    "9b34ff5bd418e57d58891eb0aa0728043ca1e8be, 7, 9b34ff5",
    "abcd, 8, abcd",
    "abcd, 7, abcd",
    "12345678, 8, 12345678",
    "'', 8, ''"
  })
  void shortShaMatchesArgo(String sha, int length, String expected) {
    assertThat(Slug.shortSha(sha, length)).isEqualTo(expected);
  }

  @Test
  void shortShaRejectsNegativeLength() {
    assertThatThrownBy(() -> Slug.shortSha("abcd", -1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
