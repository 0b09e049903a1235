package io.github.appsetmapper.expr;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** The {@code #functions} of mapping expressions. Static, pure, and safe on null. */
public final class Functions {
  private Functions() {}

  /** RFC 1123 label like Argo CD's {@code branch_slug} (gosimple/slug, '_' turned into '-'). */
  public static String slug(String text, int maxLength) {
    return text == null ? null : Slug.slug(text, maxLength);
  }

  /** The first {@code length} characters of a commit SHA, like Argo CD's head_short_sha. */
  public static String shortSha(String sha, int length) {
    return sha == null ? null : Slug.shortSha(sha, length);
  }

  public static String lower(String text) {
    return text == null ? null : text.toLowerCase(Locale.ROOT);
  }

  public static String upper(String text) {
    return text == null ? null : text.toUpperCase(Locale.ROOT);
  }

  /** The highest semantic version among the strings given ({@code v} prefix allowed), or null. */
  public static String semverMax(Collection<?> versions) {
    return versions == null ? null : SemVer.max(versions);
  }

  public static String sha256(String text) {
    if (text == null) {
      return null;
    }
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
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
      return io.github.appsetmapper.json.JsonCodec.write(Values.parameter(value, true));
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
      functions.put("semverMax", Functions.class.getMethod("semverMax", Collection.class));
      functions.put("sha256", Functions.class.getMethod("sha256", String.class));
      functions.put("json", Functions.class.getMethod("json", Object.class));
      functions.put("default", Functions.class.getMethod("default_", Object.class, Object.class));
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(e);
    }
    return functions;
  }
}
