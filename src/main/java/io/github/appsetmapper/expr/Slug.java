package io.github.appsetmapper.expr;

import java.text.Normalizer;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Argo CD's pull-request generator parameters {@code branch_slug} and {@code head_short_sha}.
 *
 * <p>Argo CD (applicationset/generators/pull_request.go) sets {@code slug.MaxLength = 50} and
 * {@code slug.CustomSub = {"_": "-"}}, then calls {@code slug.Make(branch)} from
 * github.com/gosimple/slug (v1.15.0, language "en"), which transliterates with
 * github.com/gosimple/unidecode (v1.0.1). {@link #slug} follows slug.MakeLang step by step.
 *
 * <p>Transliteration coverage. unidecode has a 64K-entry table; this port carries the entries that
 * matter for branch names, taken from that table's data:
 *
 * <ul>
 *   <li>exact (checked code point by code point) for Latin-1 Supplement, Latin Extended-A/B, modern
 *       Greek letters, Cyrillic U+0400-U+045F and U+0490-U+04FE;
 *   <li>via NFKD, letters that decompose to ASCII plus combining marks (Vietnamese, fullwidth
 *       ASCII, ligatures), as unidecode spells them too;
 *   <li>punctuation, spaces and symbols without a mapping become a separator, as unidecode's ASCII
 *       punctuation or its "[?]" placeholder would; combining marks, format and control characters
 *       vanish, as in unidecode;
 *   <li>not covered: letters of other scripts (CJK, kana, Hangul, Arabic, Hebrew, Indic, Thai,
 *       Armenian, Georgian, ...), which unidecode spells out (e.g. "影師" gives "ying-shi"); here
 *       they only separate words. Outside the BMP unidecode drops everything (emoji), as here.
 * </ul>
 */
public final class Slug {

  private static final Pattern NON_AUTHORIZED = Pattern.compile("[^a-zA-Z0-9_-]");
  private static final Pattern MULTIPLE_DASHES = Pattern.compile("-+");

  /** slug's "en" rune substitutions, then unidecode values where NFKD alone gets them wrong. */
  private static final Map<Integer, String> TABLE = new HashMap<>();

  static {
    // gosimple/slug languages_substitution.go: enSub plus defaultSub, applied before unidecode.
    pairs("& and @ at – - — - ‒ - ― -");
    TABLE.put((int) '"', "");
    TABLE.put((int) '\'', "");
    TABLE.put((int) '’', "");
    // Latin-1 Supplement and Latin Extended-A: symbols, ligatures and letters with a stroke.
    pairs(
        "¡ ! ¢ C/ £ PS ¤ $? ¥ Y= ¦ | § SS ¨ \" © (c) « << ¬ ! ® (r) ¯ - ° deg ± +- ´ ' µ u ¶ P"
            + " · * ¸ , » >> ¼ 1/4 ½ 1/2 ¾ 3/4 ¿ ? Æ AE Ð D × x Ø O Þ Th ß ss æ ae ð d ÷ / ø o"
            + " þ th Đ D đ d Ħ H ħ h ı i ĸ k Ŀ L ŀ l Ł L ł l ŉ 'n Ŋ ng ŋ NG Œ OE œ oe Ŧ T ŧ t");
    // Other single entries: "€" per slug_test.go ("fácil €" -> "facil-eu"); "ˍ" shows that
    // unidecode may emit "_", which survives Argo's "_" -> "-" since that substitution runs first.
    pairs("€ EU ˍ _");
    // Whole blocks in code point order; "[?]" is unidecode's placeholder, it becomes a dash.
    run(
        0x0180, // Latin Extended-B
        "b B B b 6 6 O C c D D D d d 3 @ E F f G G hv I I K k l l W N n O O o OI oi P p YR 2 2 SH"
            + " sh t T t T U u Y V Y y Z z ZH ZH zh zh 2 5 5 ts w | || |= ! DZ Dz dz LJ Lj lj NJ"
            + " Nj nj A a I i O o U u U u U u U u U u @ A a A a AE ae G g G g K k O o O o ZH zh j"
            + " DZ Dz dz G g HV W N n A a AE ae O o A a A a E e E e I i I i O o O o R r R r U u U u"
            + " S s T t Y y H h N d OU ou Z z A a E e O o O o O o O o Y y l n t j db qp A C c L T s"
            + " z [?] [?] B U ^ E e J j q q R r Y y");
    run(0x0391, "A B G D E Z E Th I K L M N Ks O P R"); // Greek; accented letters via NFKD
    run(0x03A3, "S T U Ph Kh Ps O");
    run(0x03B1, "a b g d e z e th i k l m n x o p r s s t u ph kh ps o");
    run(
        0x0400, // Cyrillic
        "Ie Io Dj Gj Ie Dz I Yi J Lj Nj Tsh Kj I U Dzh A B V G D E Zh Z I I K L M N O P R S T U"
            + " F Kh Ts Ch Sh Shch ' Y ' E Iu Ia a b v g d e zh z i i k l m n o p r s t u f kh ts"
            + " ch sh shch ' y ' e iu ia ie io dj gj ie dz i yi j lj nj tsh kj i u dzh");
    run(
        0x0490, // Cyrillic letters of Ukrainian, Kazakh, Tatar, Tajik, ...
        "G' g' G' g' G' g' Zh' zh' Z' z' K' k' K' k' K' k' K' k' N' n' Ng ng P' p' Kh kh S' s'"
            + " T' t' U u U' u' Kh' kh' Tts tts Ch' ch' Ch' ch' H h Ch ch Ch' ch' ` Zh zh K' k' [?]"
            + " [?] N' n' [?] [?] Ch ch [?] [?] [?] a a A a Ae ae Ie ie @ @ @ @ Zh zh Z z Dz dz I i"
            + " I i O o O o O o E e U u U u U u Ch ch [?] [?] Y y [?] [?] [?] [?] [?]");
  }

  private Slug() {}

  /**
   * Port of gosimple/slug's {@code Make} as configured by Argo CD; Argo passes {@code maxLength}
   * 50. {@code maxLength <= 0} means no limit.
   */
  public static String slug(String text, int maxLength) {
    Objects.requireNonNull(text, "text");
    // TrimSpace, then CustomSub "_" -> "-", then the "en" rune substitutions and unidecode.
    String s = text.strip().replace("_", "-");
    StringBuilder ascii = new StringBuilder(s.length());
    s.codePoints().forEach(cp -> transliterate(cp, ascii));
    // Lowercase is safe on ASCII; '_' stays authorized as in slug.go's "[^a-zA-Z0-9-_]".
    String slug = ascii.toString().toLowerCase(Locale.ROOT);
    slug = NON_AUTHORIZED.matcher(slug).replaceAll("-");
    slug = MULTIPLE_DASHES.matcher(slug).replaceAll("-");
    slug = trim(slug);
    return maxLength > 0 ? smartTruncate(slug, maxLength) : slug;
  }

  /**
   * Argo CD's {@code head_short_sha} (length 8) and {@code head_short_sha_7} (length 7): the SHA
   * cut to {@code min(len(sha), length)}, so a shorter SHA is returned whole.
   */
  public static String shortSha(String sha, int length) {
    Objects.requireNonNull(sha, "sha");
    if (length < 0) {
      throw new IllegalArgumentException("length must not be negative: " + length);
    }
    return sha.substring(0, Math.min(sha.length(), length));
  }

  private static void transliterate(int cp, StringBuilder out) {
    String mapped = TABLE.get(cp); // first, so the "en" substitutions of '&', '@', ... apply
    if (mapped != null) {
      out.append(mapped);
      return;
    }
    if (cp < 0x80) {
      out.append((char) cp);
      return;
    }
    if (cp > 0xFFFF) {
      return; // unidecode's table stops at the BMP and skips the rest
    }
    String decomposed = Normalizer.normalize(Character.toString(cp), Normalizer.Form.NFKD);
    if (decomposed.codePointCount(0, decomposed.length()) == 1 && decomposed.codePointAt(0) == cp) {
      fallback(cp, out);
      return;
    }
    decomposed
        .codePoints()
        .forEach(
            c -> {
              String part = c < 0x80 ? Character.toString(c) : TABLE.get(c);
              if (part != null) {
                out.append(part);
              } else {
                fallback(c, out);
              }
            });
  }

  /** Characters we carry no value for: marks, format and controls vanish, the rest separates. */
  private static void fallback(int cp, StringBuilder out) {
    switch (Character.getType(cp)) {
      case Character.NON_SPACING_MARK,
          Character.ENCLOSING_MARK,
          Character.COMBINING_SPACING_MARK,
          Character.FORMAT,
          Character.CONTROL,
          Character.SURROGATE -> {}
      default -> out.append(' ');
    }
  }

  /** Go's {@code strings.Trim(slug, "-_")}. */
  private static String trim(String s) {
    int start = 0;
    int end = s.length();
    while (start < end && (s.charAt(start) == '-' || s.charAt(start) == '_')) {
      start++;
    }
    while (end > start && (s.charAt(end - 1) == '-' || s.charAt(end - 1) == '_')) {
      end--;
    }
    return s.substring(start, end);
  }

  /**
   * slug.go's smartTruncate: cut at the last '-' at or before index {@code maxLength}, else hard
   * cut at {@code maxLength}. The input is ASCII here, so chars are Go's bytes.
   */
  private static String smartTruncate(String text, int maxLength) {
    if (text.length() <= maxLength) {
      return text;
    }
    for (int i = maxLength; i >= 0; i--) {
      if (text.charAt(i) == '-') {
        return text.substring(0, i);
      }
    }
    return text.substring(0, maxLength);
  }

  /** Fills {@link #TABLE} from "char value char value ..." (values never contain spaces). */
  private static void pairs(String spec) {
    String[] tokens = spec.split(" ");
    for (int i = 0; i < tokens.length; i += 2) {
      TABLE.put(tokens[i].codePointAt(0), tokens[i + 1]);
    }
  }

  /** Fills {@link #TABLE} with consecutive code points from {@code first}. */
  private static void run(int first, String values) {
    String[] tokens = values.split(" ");
    for (int i = 0; i < tokens.length; i++) {
      TABLE.put(first + i, tokens[i]);
    }
  }
}
