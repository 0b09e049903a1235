package io.github.appsetmapper.compile;

import java.util.List;

/**
 * A request URL template whose holes know where they stand: {@code BASE} holes (before the path,
 * like {@code #{vars.api}}) are inserted as they are and may not read the input; {@code PATH} holes
 * are percent-encoded as (part of) one path segment; {@code QUERY} holes as a query component.
 */
public record UrlTemplate(Template template, List<Role> roles, List<Boolean> wholeSegment) {

  public enum Role {
    LITERAL,
    BASE,
    PATH,
    QUERY
  }

  public UrlTemplate {
    roles = List.copyOf(roles);
    wholeSegment = List.copyOf(wholeSegment);
  }
}
