package io.github.appsetmapper.expr;

import io.github.appsetmapper.digest.Sha256;
import io.github.appsetmapper.json.Utf8;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code #functions} of mapping expressions. Static, pure, and safe on null. */
public final class Functions {
  private Functions() {}

  /** RFC 1123 label like Argo CD's {@code branch_slug} (gosimple/slug, '_' turned into '-'). */
  public static String slug(String text, int maxLength) {
    // Half a pair is no character: unidecode would drop it, and a slug of "" follow.
    return text == null
        ? null
        : EvaluationBudget.current()
            .built(Slug.slug(Utf8.checked(text, "#slug's text"), maxLength), "#slug");
  }

  /** The first {@code length} characters of a commit SHA, like Argo CD's head_short_sha. */
  public static String shortSha(String sha, int length) {
    if (sha == null) {
      return null;
    }
    String cut = Slug.shortSha(sha, length);
    // A cut is a new string (the whole text is the one read): bounded as any string built.
    return cut == sha ? cut : EvaluationBudget.current().built(cut, "#shortSha");
  }

  // Bounded as the methods' case changes are: a text may grow (ß becomes SS) past 1 MiB.
  public static String lower(String text) {
    return text == null ? null : EvaluationBudget.current().built(CaseChange.lower(text), "#lower");
  }

  public static String upper(String text) {
    return text == null ? null : EvaluationBudget.current().built(CaseChange.upper(text), "#upper");
  }

  /** The highest semantic version among the strings given ({@code v} prefix allowed), or null. */
  public static String semverMax(Object versions) {
    return versions == null ? null : SemVer.max(list("#semverMax", versions));
  }

  /**
   * The argument as a list, or a failure naming the function: SpEL would otherwise convert a map, a
   * number or a comma-separated text into a list, and an error object would become "no versions".
   */
  private static Collection<?> list(String function, Object value) {
    if (value instanceof Collection<?> collection) {
      return collection;
    }
    throw new IllegalArgumentException(function + " needs a list, got " + kind(value));
  }

  /**
   * Semantic-version precedence: -1, 0 or 1 as {@code a} is lower, equal or higher than {@code b}
   * ({@code v} prefix allowed, build metadata ignored); null when either is null or no version.
   */
  public static Integer semverCompare(String a, String b) {
    SemVer left = a == null ? null : SemVer.parse(a);
    SemVer right = b == null ? null : SemVer.parse(b);
    return left == null || right == null ? null : Integer.signum(left.compareTo(right));
  }

  /** Whether {@code text} is a semantic version ({@code v} prefix allowed); null for null. */
  public static Boolean semverValid(String text) {
    return text == null ? null : SemVer.parse(text) != null;
  }

  /** The versions among the strings, lowest first (non-versions left out); null for null. */
  public static java.util.List<String> semverSort(Object versions) {
    return versions == null ? null : SemVer.sort(list("#semverSort", versions));
  }

  /**
   * Whether {@code version} satisfies {@code constraint}, in the syntax of Masterminds/semver (what
   * Helm uses: {@code ^1.2}, {@code ~1.2.3}, {@code >=1.0 <2.0}, {@code 1.x}, {@code ||}, {@code 1
   * - 2}); a version that is none is false; null for a null argument. An invalid constraint fails
   * the row (a literal one is a load error).
   */
  public static Boolean semverMatches(Object version, Object constraint) {
    if (constraint == null) {
      // A constraint the data lacks has not said "nothing matches": a filter would drop every row.
      throw new IllegalArgumentException("#semverMatches: the constraint is null or missing");
    }
    if (version == null) {
      // A version field the data lost (renamed upstream) must not drop every row through a filter.
      throw new IllegalArgumentException("#semverMatches: the version is null or missing");
    }
    String text = text("#semverMatches", "version", version);
    SemverRange range;
    try {
      range = SemverRanges.of(text("#semverMatches", "constraint", constraint));
    } catch (SemverRange.Invalid e) {
      throw new IllegalArgumentException(
          "#semverMatches: invalid constraint '"
              + SemverRanges.shortened(constraint.toString())
              + "': "
              + e.getMessage());
    }
    SemverRange.Version parsed = SemverRange.version(text);
    return parsed != null && range.matches(parsed);
  }

  /** The elements of a list of lists, one level flattened (an element that is no list kept). */
  public static java.util.List<Object> flatten(Object list) {
    if (list == null) {
      return null;
    }
    EvaluationBudget budget = EvaluationBudget.current();
    java.util.List<Object> out = new java.util.ArrayList<>();
    for (Object element : list("#flatten", list)) {
      budget.tick();
      if (element instanceof Collection<?> inner) {
        for (Object each : inner) {
          budget.tick();
          out.add(each);
        }
      } else {
        out.add(element);
      }
    }
    return java.util.Collections.unmodifiableList(out);
  }

  /** The first element of a list; null when it is empty or null. */
  public static Object first(Object list) {
    if (list == null) {
      return null;
    }
    Collection<?> elements = list("#first", list);
    return elements.isEmpty() ? null : elements.iterator().next();
  }

  /** Whether the value is a list (a JSON array); false for null. */
  public static boolean isList(Object value) {
    return value instanceof Collection<?>;
  }

  /**
   * The text as a number (integer or decimal, within the input bounds); a number as it is; null for
   * null. Text that is no number fails the row, naming it.
   */
  public static Number toNumber(Object value) {
    if (value == null || value instanceof Number) {
      return (Number) value;
    }
    String text = text("#toNumber", "argument", value);
    try {
      return io.github.appsetmapper.json.Numbers.parse(text);
    } catch (io.github.appsetmapper.json.Numbers.Refused e) {
      throw new IllegalArgumentException("#toNumber: " + e.getMessage());
    }
  }

  /** A text argument, or a failure naming the function and what it got instead. */
  private static String text(String function, String what, Object value) {
    if (value instanceof String text) {
      return text;
    }
    throw new IllegalArgumentException(function + " needs a text " + what + ", got " + kind(value));
  }

  /** What a value is, in the words of JSON (never a Java type name). */
  static String kind(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof Map<?, ?>) {
      return "a map";
    }
    if (value instanceof Collection<?>) {
      return "a list";
    }
    if (value instanceof String) {
      return "a text";
    }
    if (value instanceof Number) {
      return "a number";
    }
    if (value instanceof Boolean) {
      return "a boolean";
    }
    return "a value of another kind";
  }

  /** The request's time, RFC 3339 in UTC: one answer sees one "now". */
  public static String now() {
    return Dates.text(EvaluationBudget.requestTime());
  }

  /** The RFC 3339 date-time (or date) as seconds since 1970-01-01T00:00:00Z; null for null. */
  public static Long epochSeconds(String date) {
    return date == null ? null : Dates.parse(date).getEpochSecond();
  }

  /** Whole seconds from {@code date} to the request's time (negative in the future). */
  public static Long secondsSince(String date) {
    return date == null
        ? null
        : Dates.secondsBetween(Dates.parse(date), EvaluationBudget.requestTime());
  }

  /** Whole days from {@code date} to the request's time: "updated in the last 30 days". */
  public static Long daysSince(String date) {
    Long seconds = secondsSince(date);
    return seconds == null ? null : Math.floorDiv(seconds, 86_400L);
  }

  /** -1, 0 or 1 as the date {@code a} is before, at or after {@code b}; null for a null. */
  public static Integer dateCompare(String a, String b) {
    return a == null || b == null ? null : Integer.signum(Dates.parse(a).compareTo(Dates.parse(b)));
  }

  /** The date in UTC, formatted by a {@code java.time} pattern ({@code yyyy-MM-dd}). */
  public static String dateFormat(String date, String pattern) {
    if (date == null || pattern == null) {
      return null;
    }
    return EvaluationBudget.current()
        .built(Dates.format(Dates.parse(date), pattern), "#dateFormat");
  }

  /** RFC 3986 percent-encoding of all but {@code A-Z a-z 0-9 - . _ ~}. */
  public static String urlEncode(String text) {
    if (text == null) {
      return null;
    }
    EvaluationBudget.current().reserve(3L * text.length(), "#urlEncode");
    return EvaluationBudget.current().built(Escapes.url(text), "#urlEncode");
  }

  /** A regex matching {@code text} literally (for {@code matches}, {@code replaceAll}). */
  public static String regexQuote(String text) {
    return text == null
        ? null
        : EvaluationBudget.current().built(Escapes.regex(text), "#regexQuote");
  }

  /** One POSIX shell word: {@code it's} gives {@code 'it'\''s'}. */
  public static String shellQuote(String text) {
    return text == null
        ? null
        : EvaluationBudget.current().built(Escapes.shell(text), "#shellQuote");
  }

  /** A map's entries as a list of {@code {key, value}} maps, in order; null for null. */
  public static java.util.List<Map<String, Object>> entries(Map<?, ?> map) {
    if (map == null) {
      return null;
    }
    EvaluationBudget budget = EvaluationBudget.current();
    java.util.List<Map<String, Object>> out = new java.util.ArrayList<>(map.size());
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      budget.tick();
      Map<String, Object> pair = new LinkedHashMap<>();
      pair.put("key", entry.getKey());
      pair.put("value", entry.getValue());
      out.add(java.util.Collections.unmodifiableMap(pair));
    }
    return java.util.Collections.unmodifiableList(out);
  }

  /** The SHA-256 of the text's UTF-8, as hex; half of a surrogate pair refused ({@link Utf8}). */
  public static String sha256(String text) {
    if (text == null) {
      return null;
    }
    EvaluationBudget.step(text, null); // a long text takes milliseconds: not past the deadline
    return HexFormat.of().formatHex(Sha256.of(Utf8.bytes(text, "#sha256's text")));
  }

  /** The value as compact JSON text (the expression function: within the evaluation's budget). */
  public static String json(Object value) {
    // Counted before it is written: the text is as large as what it counts.
    EvaluationBudget.current().charge(value, "#json");
    return EvaluationBudget.current().built(writeJson(value), "#json");
  }

  /** The value as compact JSON text. */
  static String writeJson(Object value) {
    try {
      // Paced: what charge counted is written within the deadline, a big number checked before.
      return io.github.appsetmapper.json.JsonCodec.write(
          Values.parameter(value, true), EvaluationBudget.pace());
    } catch (IllegalStateException e) {
      throw new IllegalArgumentException("cannot write as JSON: " + e.getCause().getMessage());
    }
  }

  /** {@code value} unless it is null (or an empty string), else {@code fallback}. */
  public static Object default_(Object value, Object fallback) {
    if (value == null || (value instanceof String s && s.isEmpty())) {
      return fallback;
    }
    return value;
  }

  /** The functions by the name expressions call them with. */
  static Map<String, Method> all() {
    Map<String, Method> functions = new LinkedHashMap<>();
    try {
      functions.put("slug", Functions.class.getMethod("slug", String.class, int.class));
      functions.put("shortSha", Functions.class.getMethod("shortSha", String.class, int.class));
      functions.put("lower", Functions.class.getMethod("lower", String.class));
      functions.put("upper", Functions.class.getMethod("upper", String.class));
      functions.put("semverMax", Functions.class.getMethod("semverMax", Object.class));
      functions.put(
          "semverCompare", Functions.class.getMethod("semverCompare", String.class, String.class));
      functions.put("semverValid", Functions.class.getMethod("semverValid", String.class));
      functions.put("semverSort", Functions.class.getMethod("semverSort", Object.class));
      functions.put(
          "semverMatches", Functions.class.getMethod("semverMatches", Object.class, Object.class));
      functions.put("flatten", Functions.class.getMethod("flatten", Object.class));
      functions.put("first", Functions.class.getMethod("first", Object.class));
      functions.put("isList", Functions.class.getMethod("isList", Object.class));
      functions.put("toNumber", Functions.class.getMethod("toNumber", Object.class));
      functions.put("now", Functions.class.getMethod("now"));
      functions.put("epochSeconds", Functions.class.getMethod("epochSeconds", String.class));
      functions.put("secondsSince", Functions.class.getMethod("secondsSince", String.class));
      functions.put("daysSince", Functions.class.getMethod("daysSince", String.class));
      functions.put(
          "dateCompare", Functions.class.getMethod("dateCompare", String.class, String.class));
      functions.put(
          "dateFormat", Functions.class.getMethod("dateFormat", String.class, String.class));
      functions.put("urlEncode", Functions.class.getMethod("urlEncode", String.class));
      functions.put("regexQuote", Functions.class.getMethod("regexQuote", String.class));
      functions.put("shellQuote", Functions.class.getMethod("shellQuote", String.class));
      functions.put("entries", Functions.class.getMethod("entries", Map.class));
      functions.put("sha256", Functions.class.getMethod("sha256", String.class));
      functions.put("json", Functions.class.getMethod("json", Object.class));
      functions.put("default", Functions.class.getMethod("default_", Object.class, Object.class));
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(e);
    }
    return functions;
  }
}
