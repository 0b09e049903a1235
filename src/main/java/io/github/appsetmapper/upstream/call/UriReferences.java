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
   * {@code reference} (trimmed) resolved against {@code base}; an {@link IllegalArgumentException}
   * when it is not a URI reference, as {@link URI#resolve(String)} throws.
   */
  public static URI resolve(URI base, String reference) {
    URI ref = URI.create(reference.trim());
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
}
