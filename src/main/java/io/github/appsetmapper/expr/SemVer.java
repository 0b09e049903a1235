package io.github.appsetmapper.expr;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import java.math.BigInteger;
import java.util.Collection;

/**
 * Semantic Versioning 2.0.0 precedence, enough to pick the newest tag of a list (RE2: tags are
 * upstream text).
 */
final class SemVer implements Comparable<SemVer> {
  private static final Pattern FORM =
      Pattern.compile(
          "v?(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)"
              + "(?:-([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?(?:\\+[0-9A-Za-z.-]+)?");

  /** Longer text is no version anyone tags with; its digits are never parsed. */
  static final int MAX_TEXT = 256;

  private final BigInteger[] core;
  private final String[] pre;

  private SemVer(BigInteger[] core, String[] pre) {
    this.core = core;
    this.pre = pre;
  }

  static SemVer parse(String text) {
    if (text.length() > MAX_TEXT) {
      return null;
    }
    Matcher m = FORM.matcher(text);
    if (!m.matches()) {
      return null;
    }
    BigInteger[] core = {
      new BigInteger(m.group(1)), new BigInteger(m.group(2)), new BigInteger(m.group(3))
    };
    return new SemVer(core, m.group(4) == null ? new String[0] : m.group(4).split("\\."));
  }

  static String max(Collection<?> candidates) {
    // Checks the deadline as sort does: 38,000 versions of 250 characters took 4 s to parse.
    EvaluationBudget budget = EvaluationBudget.current();
    String best = null;
    SemVer bestVersion = null;
    for (Object candidate : candidates) {
      budget.tick();
      if (candidate == null) {
        continue;
      }
      SemVer version = parse(candidate.toString());
      if (version != null && (bestVersion == null || version.compareTo(bestVersion) > 0)) {
        best = candidate.toString();
        bestVersion = version;
      }
    }
    return best;
  }

  /** The versions among {@code candidates}, lowest first; the rest left out. */
  static java.util.List<String> sort(Collection<?> candidates) {
    EvaluationBudget budget = EvaluationBudget.current();
    java.util.List<java.util.Map.Entry<SemVer, String>> found = new java.util.ArrayList<>();
    for (Object candidate : candidates) {
      budget.tick();
      if (candidate == null) {
        continue;
      }
      String text = candidate.toString();
      SemVer version = parse(text);
      if (version != null) {
        found.add(java.util.Map.entry(version, text));
      }
    }
    // Stable: equal versions (1.0.0 and v1.0.0+build) keep their order.
    found.sort(
        (a, b) -> {
          budget.tick();
          return a.getKey().compareTo(b.getKey());
        });
    return java.util.Collections.unmodifiableList(
        found.stream().map(java.util.Map.Entry::getValue).toList());
  }

  @Override
  public int compareTo(SemVer other) {
    for (int i = 0; i < 3; i++) {
      int c = core[i].compareTo(other.core[i]);
      if (c != 0) {
        return c;
      }
    }
    return comparePre(pre, other.pre);
  }

  /** Pre-release precedence; a release (no identifiers) ranks above its own pre-releases. */
  static int comparePre(String[] pre, String[] other) {
    if (pre.length == 0 || other.length == 0) {
      return Boolean.compare(pre.length == 0, other.length == 0);
    }
    for (int i = 0; i < Math.min(pre.length, other.length); i++) {
      int c = comparePart(pre[i], other[i]);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(pre.length, other.length);
  }

  private static int comparePart(String a, String b) {
    boolean aNumeric = a.chars().allMatch(Character::isDigit);
    boolean bNumeric = b.chars().allMatch(Character::isDigit);
    if (aNumeric && bNumeric) {
      return new BigInteger(a).compareTo(new BigInteger(b));
    }
    if (aNumeric != bNumeric) {
      return aNumeric ? -1 : 1;
    }
    return a.compareTo(b);
  }
}
