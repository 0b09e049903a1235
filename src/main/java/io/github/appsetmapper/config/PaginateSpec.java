package io.github.appsetmapper.config;

/** {@code paginate}: how to find the next page, and when to give up. */
public record PaginateSpec(
    Pos pos, Mode mode, String linkRel, Expr next, int maxPages, boolean stopAtMax) {

  public static final int DEFAULT_MAX_PAGES = 10;

  public enum Mode {
    LINK_HEADER,
    NEXT_URL
  }
}
