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

  /** A paginate block, set component by component (the other modes' fields left null). */
  public static Builder builder() {
    return new Builder();
  }

  /** Sets each component by name: two of one type cannot be swapped unseen. */
  public static final class Builder {
    private Pos pos;
    private Mode mode;
    private String linkRel;
    private Expr next;
    private Cursor cursor;
    private Page page;
    private int maxPages;
    private boolean stopAtMax;

    private Builder() {}

    public Builder pos(Pos value) {
      this.pos = value;
      return this;
    }

    public Builder mode(Mode value) {
      this.mode = value;
      return this;
    }

    public Builder linkRel(String value) {
      this.linkRel = value;
      return this;
    }

    public Builder next(Expr value) {
      this.next = value;
      return this;
    }

    public Builder cursor(Cursor value) {
      this.cursor = value;
      return this;
    }

    public Builder page(Page value) {
      this.page = value;
      return this;
    }

    public Builder maxPages(int value) {
      this.maxPages = value;
      return this;
    }

    public Builder stopAtMax(boolean value) {
      this.stopAtMax = value;
      return this;
    }

    public PaginateSpec build() {
      return new PaginateSpec(pos, mode, linkRel, next, cursor, page, maxPages, stopAtMax);
    }
  }

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
