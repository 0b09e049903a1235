package io.github.appsetmapper.upstream.call;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * Resolves a reference an upstream gave (a next link, a {@code Location}) against the URL it
 * answered, as RFC 3986 section 5.2 does, where {@link URI#resolve} follows RFC 2396: {@code
 * ?page=2} against {@code /api/items?page=1} is {@code /api/items?page=2}, not {@code /api/?page=2}
 * (another resource: a next page fetched from the wrong place, or a 404), the empty reference is
 * the page itself, and a relative path against a host without a path starts at {@code /}.
 */
public final class UriReferences {
  private UriReferences() {}

  /**
   * {@code reference} (trimmed, {@link #encode encoded}) resolved against {@code base}; an {@link
   * IllegalArgumentException} when it is still not a URI reference, as {@link URI#resolve(String)}
   * throws.
   */
  public static URI resolve(URI base, String reference) {
    URI ref = URI.create(encode(reference.trim()));
    if (ref.isOpaque() || ref.getScheme() != null || ref.getRawAuthority() != null) {
      return base.resolve(ref);
    }
    String path = ref.getRawPath() == null ? "" : ref.getRawPath();
    try {
      if (path.isEmpty()) {
        // Same path; the reference's query when it has one, else the base's.
        String query = ref.getRawQuery() != null ? ref.getRawQuery() : base.getRawQuery();
        return new URI(
            base.getScheme()
                + ":"
                + (base.getRawAuthority() == null ? "" : "//" + base.getRawAuthority())
                + (base.getRawPath() == null ? "" : base.getRawPath())
                + (query == null ? "" : "?" + query)
                + (ref.getRawFragment() == null ? "" : "#" + ref.getRawFragment()));
      }
      if (!path.startsWith("/")
          && base.getRawAuthority() != null
          && (base.getRawPath() == null || base.getRawPath().isEmpty())) {
        return base.resolve(new URI(base.getScheme() + "://" + base.getRawAuthority() + "/"))
            .resolve(ref);
      }
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    return base.resolve(ref);
  }

  /** ASCII characters a URI cannot hold as written, percent-encoded by {@link #encode}. */
  private static final String UNSAFE = " \"<>\\^`{|}";

  /**
   * {@code reference} with the characters a URI cannot hold percent-encoded, as browsers do with a
   * link an upstream wrote ({@code ?filter=a|b} is sent as {@code ?filter=a%7Cb}): a space, {@code
   * " < > \ ^ ` { | }}, a control character, a {@code %} not followed by two hex digits ({@code
   * 100%}: {@code 100%25}; a valid {@code %XX} is kept), a {@code #} after the first, and {@code [
   * ]} outside the authority (JSON:API's {@code page[number]}). The authority ({@code //host:port})
   * is left as written, so that a host that is not one still does not parse and every host check
   * sees the host the upstream gave. Other characters, non-ASCII ones included, are kept.
   */
  public static String encode(String reference) {
    int authorityEnd = authorityEnd(reference);
    StringBuilder out = null;
    boolean fragment = false;
    for (int i = 0; i < reference.length(); i++) {
      char c = reference.charAt(i);
      boolean escape;
      if (i < authorityEnd) {
        escape = false;
      } else if (c == '%') {
        escape = !(hex(reference, i + 1) && hex(reference, i + 2));
      } else if (c == '#') {
        escape = fragment;
        fragment = true;
      } else {
        escape = c < 0x20 || c == 0x7f || UNSAFE.indexOf(c) >= 0 || c == '[' || c == ']';
      }
      if (escape && out == null) {
        out = new StringBuilder(reference.length() + 16).append(reference, 0, i);
      }
      if (escape) {
        out.append('%').append(HEX[c >> 4 & 0xf]).append(HEX[c & 0xf]);
      } else if (out != null) {
        out.append(c);
      }
    }
    return out == null ? reference : out.toString();
  }

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private static boolean hex(String text, int at) {
    return at < text.length()
        && Character.digit(text.charAt(at), 16) >= 0
        && text.charAt(at) < 0x80;
  }

  /** Where the authority of {@code reference} ends (0: it has none). */
  private static int authorityEnd(String reference) {
    int start;
    if (reference.startsWith("//")) {
      start = 2;
    } else {
      int colon = reference.indexOf(':');
      if (colon <= 0
          || !reference.substring(0, colon).matches("[A-Za-z][A-Za-z0-9+.-]*")
          || !reference.startsWith("//", colon + 1)) {
        return 0;
      }
      start = colon + 3;
    }
    int end = start;
    while (end < reference.length() && "/?#".indexOf(reference.charAt(end)) < 0) {
      end++;
    }
    return end;
  }
}
