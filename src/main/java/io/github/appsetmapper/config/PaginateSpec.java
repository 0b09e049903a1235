package io.github.appsetmapper.config;

import java.util.Set;

/**
 * {@code paginate}: how to find the next page, and when to give up. Exactly one mode; the fields of
 * the others are null.
 */
public record PaginateSpec(
    Pos pos,
    Mode mode,
    String linkRel,
    Expr next,
    Cursor cursor,
    Page page,
    int maxPages,
    boolean stopAtMax) {

  public static final int DEFAULT_MAX_PAGES = 10;

  public enum Mode {
    LINK_HEADER,
    NEXT_URL,
    CURSOR,
    PAGE
  }

  /**
   * {@code cursor}: the next cursor read at JsonPath {@code from}, sent as query parameter {@code
   * param} (or by the request itself through {@code page.cursor}); {@code until} (SpEL over {@code
   * response}) ends early.
   */
  public record Cursor(Pos pos, String param, Expr from, Expr until) {}

  /**
   * {@code page}: numbered pages from {@code start}, sent as query parameter {@code param} (or by
   * the request through {@code page.number}); {@code size} rows a page, sent as {@code sizeParam}
   * when given. The end is told by the answer's headers ({@code Link: rel="next"}, {@code
   * X-Next-Page}, {@code X-Total-Pages}/{@code X-Total}), else by an empty page; {@code
   * stopOnShortPage} also ends at a page with fewer rows than {@code size}, and a page answering
   * one of {@code endStatus} (after the first) ends the listing instead of failing it.
   */
  public record Page(
      Pos pos,
      String param,
      int start,
      Integer size,
      String sizeParam,
      Set<Integer> endStatus,
      boolean stopOnShortPage) {}
}
