package io.github.appsetmapper.config;

import java.util.Locale;

/**
 * How a request's answer is read ({@code format}): JSON whatever the {@code Content-Type} says (raw
 * file hosts serve JSON as {@code text/plain}), YAML (a Helm repository's {@code index.yaml}), or
 * the body as one string.
 */
public enum BodyFormat {
  JSON,
  YAML,
  TEXT;

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
