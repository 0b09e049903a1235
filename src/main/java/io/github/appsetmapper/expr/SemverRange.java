package io.github.appsetmapper.expr;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * A version constraint in the syntax of Masterminds/semver v3 (what Helm uses): comparisons ({@code
 * =}, {@code !=}, {@code >}, {@code <}, {@code >=}, {@code <=}), {@code ~1.2.3}, {@code ^1.2},
 * wildcards ({@code 1.x}, {@code *}), hyphen ranges ({@code 1.2 - 1.4.5}), space- or
 * comma-separated ANDs and {@code ||} ORs. As there, a pre-release version matches only an AND
 * group that names a pre-release. Parsed on RE2 (constraints and tags are text from anywhere).
 */
final class SemverRange {
  /** Longer constraints are no constraint anyone writes; refused before any parsing. */
  static final int MAX_TEXT = 512;

  private static final String PART = "(?:[0-9]+|[xX*])";
  private static final String VERSION =
      "v?("
          + PART
          + ")(?:\\.("
          + PART
          + "))?(?:\\.("
          + PART
          + "))?"
          + "(?:-([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?(?:\\+[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?";
  private static final Pattern ONE =
      Pattern.compile("(!=|>=|=>|<=|=<|~>|>|<|=|~|\\^)?\\s*" + VERSION);

  /** A version without groups, for the two ends of a hyphen range. */
  private static final String VERSION_TEXT =
      "v?"
          + PART
          + "(?:\\."
          + PART
          + ")?(?:\\."
          + PART
          + ")?"
          + "(?:-[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?(?:\\+[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?";

  private static final Pattern HYPHEN =
      Pattern.compile("(" + VERSION_TEXT + ")\\s+-\\s+(" + VERSION_TEXT + ")");
  private static final Pattern LOOSE_VERSION =
      Pattern.compile(
          "v?(0|[1-9][0-9]*)(?:\\.(0|[1-9][0-9]*))?(?:\\.(0|[1-9][0-9]*))?"
              + "(?:-([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?(?:\\+[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?");

  /** Thrown for a constraint that is not one; the message says which part. */
  static final class Invalid extends Exception {
    Invalid(String message) {
      super(message);
    }
  }

  private final List<List<Term>> groups;

  private SemverRange(List<List<Term>> groups) {
    this.groups = groups;
  }

  /**
   * One comparison: the operator, the version with its wildcards filled in, what was a wildcard.
   */
  private record Term(
      String op, Version version, boolean dirty, boolean minorDirty, boolean patchDirty) {}

  /** A version as constraints compare it: three numbers and the pre-release identifiers. */
  record Version(BigInteger major, BigInteger minor, BigInteger patch, String[] pre) {
    boolean isPre() {
      return pre.length > 0;
    }

    int compareTo(Version other) {
      int c = major.compareTo(other.major);
      if (c == 0) {
        c = minor.compareTo(other.minor);
      }
      if (c == 0) {
        c = patch.compareTo(other.patch);
      }
      return c != 0 ? c : SemVer.comparePre(pre, other.pre);
    }
  }

  static SemverRange parse(String text) throws Invalid {
    if (text.length() > MAX_TEXT) {
      throw new Invalid("a constraint is at most " + MAX_TEXT + " characters");
    }
    String rewritten = rewriteHyphens(text);
    List<List<Term>> groups = new ArrayList<>();
    for (String group : rewritten.split("\\|\\|", -1)) {
      groups.add(group(group.strip()));
    }
    return new SemverRange(List.copyOf(groups));
  }

  private static String rewriteHyphens(String text) {
    Matcher m = HYPHEN.matcher(text);
    StringBuilder out = new StringBuilder();
    int last = 0;
    while (m.find()) {
      out.append(text, last, m.start()).append(">= ").append(m.group(1)).append(", <= ");
      out.append(m.group(2));
      last = m.end();
    }
    return out.append(text.substring(last)).toString();
  }

  private static List<Term> group(String group) throws Invalid {
    List<Term> terms = new ArrayList<>();
    if (group.isEmpty()) {
      throw new Invalid("an empty constraint (around '||'); write * for any version");
    }
    int at = 0;
    while (at < group.length()) {
      Matcher m = ONE.matcher(group.substring(at));
      if (!m.lookingAt()) {
        throw new Invalid("'" + group.substring(at) + "' is not a version comparison");
      }
      String op = m.group(1) == null ? "" : m.group(1);
      terms.add(term(op, m.group(2), m.group(3), m.group(4), m.group(5)));
      at += m.end();
      int before = at;
      while (at < group.length() && Character.isWhitespace(group.charAt(at))) {
        at++;
      }
      if (at < group.length() && group.charAt(at) == ',') {
        at++;
        while (at < group.length() && Character.isWhitespace(group.charAt(at))) {
          at++;
        }
      } else if (at < group.length() && at == before) {
        throw new Invalid("'" + group.substring(at) + "' must be separated by a space or a comma");
      }
      if (at >= group.length() && at > before && group.charAt(group.length() - 1) == ',') {
        throw new Invalid("a comparison is missing after the last ','");
      }
    }
    return List.copyOf(terms);
  }

  private static boolean isX(String part) {
    return part == null || part.equals("x") || part.equals("X") || part.equals("*");
  }

  private static Term term(String op, String major, String minor, String patch, String pre) {
    boolean dirty = false;
    boolean minorDirty = false;
    boolean patchDirty = false;
    BigInteger zero = BigInteger.ZERO;
    BigInteger ma;
    BigInteger mi = zero;
    BigInteger pa = zero;
    if (isX(major)) {
      dirty = true;
      ma = zero;
    } else {
      ma = new BigInteger(major);
      if (isX(minor)) {
        dirty = true;
        minorDirty = true;
      } else {
        mi = new BigInteger(minor);
        if (isX(patch)) {
          dirty = true;
          patchDirty = true;
        } else {
          pa = new BigInteger(patch);
        }
      }
    }
    String[] preParts = pre == null ? new String[0] : pre.split("\\.");
    return new Term(op, new Version(ma, mi, pa, preParts), dirty, minorDirty, patchDirty);
  }

  /** A version as Masterminds reads one: {@code v} prefix, minor and patch optional; else null. */
  static Version version(String text) {
    if (text.length() > SemVer.MAX_TEXT) {
      return null;
    }
    Matcher m = LOOSE_VERSION.matcher(text);
    if (!m.matches()) {
      return null;
    }
    return new Version(
        new BigInteger(m.group(1)),
        m.group(2) == null ? BigInteger.ZERO : new BigInteger(m.group(2)),
        m.group(3) == null ? BigInteger.ZERO : new BigInteger(m.group(3)),
        m.group(4) == null ? new String[0] : m.group(4).split("\\."));
  }

  boolean matches(Version v) {
    for (List<Term> group : groups) {
      boolean includePre = group.stream().anyMatch(t -> t.version().isPre());
      boolean all = true;
      for (Term term : group) {
        EvaluationBudget.current().tick();
        if ((v.isPre() && !includePre) || !check(term, v)) {
          all = false;
          break;
        }
      }
      if (all) {
        return true;
      }
    }
    return false;
  }

  private static boolean check(Term c, Version v) {
    Version con = c.version();
    return switch (c.op()) {
      case "", "=" -> c.dirty() ? tilde(c, v) : v.compareTo(con) == 0;
      case "!=" -> notEqual(c, v);
      case ">" -> greater(c, v);
      case "<" -> v.compareTo(con) < 0;
      case ">=", "=>" -> v.compareTo(con) >= 0;
      case "<=", "=<" -> lessOrEqual(c, v);
      case "~", "~>" -> tilde(c, v);
      case "^" -> caret(c, v);
      default -> false;
    };
  }

  private static boolean notEqual(Term c, Version v) {
    Version con = c.version();
    if (c.dirty()) {
      if (!con.major().equals(v.major())) {
        return true;
      }
      if (c.minorDirty()) {
        return false;
      }
      if (!con.minor().equals(v.minor())) {
        return true;
      }
      if (c.patchDirty()) {
        return (v.isPre() || con.isPre()) && SemVer.comparePre(v.pre(), con.pre()) != 0;
      }
    }
    return v.compareTo(con) != 0;
  }

  private static boolean greater(Term c, Version v) {
    Version con = c.version();
    if (!c.dirty()) {
      return v.compareTo(con) > 0;
    }
    int major = v.major().compareTo(con.major());
    if (major != 0) {
      return major > 0;
    }
    if (c.minorDirty()) {
      return false; // >1 wants 2 or higher
    }
    if (c.patchDirty()) {
      return v.minor().compareTo(con.minor()) > 0; // >1.1 wants 1.2 or higher
    }
    return v.compareTo(con) > 0;
  }

  private static boolean lessOrEqual(Term c, Version v) {
    Version con = c.version();
    if (!c.dirty()) {
      return v.compareTo(con) <= 0;
    }
    int major = v.major().compareTo(con.major());
    if (major > 0) {
      return false;
    }
    return !(major == 0 && v.minor().compareTo(con.minor()) > 0 && !c.minorDirty());
  }

  private static boolean tilde(Term c, Version v) {
    Version con = c.version();
    if (v.compareTo(con) < 0) {
      return false;
    }
    boolean zero =
        con.major().signum() == 0 && con.minor().signum() == 0 && con.patch().signum() == 0;
    if (zero && !c.minorDirty() && !c.patchDirty()) {
      return true; // ~0.0.0 and * take any
    }
    if (!v.major().equals(con.major())) {
      return false;
    }
    return c.minorDirty() || v.minor().equals(con.minor());
  }

  private static boolean caret(Term c, Version v) {
    Version con = c.version();
    if (v.compareTo(con) < 0) {
      return false;
    }
    if (c.dirty() && !c.minorDirty() && !c.patchDirty()) {
      return true; // ^* takes any
    }
    if (con.major().signum() > 0 || c.minorDirty()) {
      return v.major().equals(con.major());
    }
    if (v.major().signum() > 0) {
      return false;
    }
    if (con.minor().signum() > 0 || c.patchDirty()) {
      return v.minor().equals(con.minor());
    }
    return v.minor().equals(con.minor()) && v.patch().equals(con.patch());
  }
}
