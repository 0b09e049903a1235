package io.github.appsetmapper.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What {@code paginate: {linkHeader: ...}} may name: the relation of the next page's link. Before,
 * any scalar passed ({@code linkHeader: true}, {@code 1}, {@code nxt}), no link had that relation,
 * and only page 1 was read: a listing cut short with a 200.
 */
final class LinkRelations {
  /**
   * The registered relation (RFC 8288, IANA's Link Relations registry) that leads through a
   * listing. Not {@code prev}: a listing read backwards ends where {@code rel="last"} names a later
   * page, which the reader takes for a cut listing (a 502); {@code first}, {@code last} and {@code
   * self} lead nowhere new.
   */
  static final Set<String> REGISTERED = Set.of("next");

  /** An extension relation is an absolute URI (RFC 8288 section 2.1.2). */
  private static final Pattern EXTENSION = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*:\\S+");

  private LinkRelations() {}

  static boolean followable(String rel) {
    if (REGISTERED.contains(rel)) {
      return true;
    }
    if (!EXTENSION.matcher(rel).matches()) {
      return false;
    }
    try {
      return new URI(rel).isAbsolute();
    } catch (URISyntaxException e) {
      return false;
    }
  }

  static String refusal(String rel) {
    return "linkHeader takes the relation of the next page's link: linkHeader: next (or an"
        + " extension relation's absolute URI), not '"
        + rel
        + "'";
  }
}
