package io.github.appsetmapper.compile;

import java.util.List;

/**
 * A request URL template whose holes know where they stand: {@code BASE} holes (before the path,
 * like {@code #{vars.api}}) are inserted as they are and may not read what the caller sends; {@code
 * PATH} holes are percent-encoded as (part of) one path segment; {@code QUERY} holes as a query
 * component. {@code segments} are the path segments that hold a hole, checked once rendered (a
 * segment of several holes, or of holes and literal text, can come out as {@code ..}).
 */
public record UrlTemplate(Template template, List<Role> roles, List<Segment> segments) {

  public enum Role {
    LITERAL,
    BASE,
    PATH,
    QUERY
  }

  /**
   * One path segment holding at least one hole: from character {@code firstOffset} of part {@code
   * firstPart} to character {@code endOffset} of part {@code lastPart} (-1: to that part's end).
   * {@code source} is how the template writes it ({@code #{input.name}.#{input.ext}}); {@code
   * fromCaller} says whether a hole in it reads what the caller sent (a bad segment is then a 400).
   */
  public record Segment(
      int firstPart,
      int firstOffset,
      int lastPart,
      int endOffset,
      String source,
      boolean fromCaller) {}

  public UrlTemplate {
    roles = List.copyOf(roles);
    segments = List.copyOf(segments);
  }
}
