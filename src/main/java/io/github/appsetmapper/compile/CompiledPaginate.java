package io.github.appsetmapper.compile;

import com.jayway.jsonpath.JsonPath;
import java.util.Set;

/** Pagination with its JsonPaths and expressions compiled: one type per mode. */
public sealed interface CompiledPaginate {
  /** How many pages at most, and whether reaching that stops ({@code onMaxPages: stop}). */
  record Limits(int maxPages, boolean stopAtMax) {}

  Limits limits();

  /** What each mode becomes: a new mode does not compile until every visitor handles it. */
  interface Visitor<T> {
    T linkHeader(LinkHeader mode);

    T nextUrl(NextUrl mode);

    T cursor(Cursor mode);

    T numbered(Numbered mode);
  }

  <T> T accept(Visitor<T> visitor);

  /** {@code linkHeader}: the URL of the {@code Link} header's relation {@code rel}. */
  record LinkHeader(String rel, Limits limits) implements CompiledPaginate {
    @Override
    public <T> T accept(Visitor<T> visitor) {
      return visitor.linkHeader(this);
    }
  }

  /**
   * {@code next}: the URL at a definite JsonPath of the body; {@code holder} (null: the body) is
   * what holds it, which must exist while the URL itself may be absent on the last page.
   */
  record NextUrl(JsonPath next, JsonPath holder, Limits limits) implements CompiledPaginate {
    @Override
    public <T> T accept(Visitor<T> visitor) {
      return visitor.nextUrl(this);
    }
  }

  /**
   * {@code cursor}: the cursor at {@code from}, held by {@code holder} (null: the body), sent as
   * query parameter {@code param} (null: the request uses {@code page.cursor}); {@code until}
   * (null: none) ends early.
   */
  record Cursor(
      String param, JsonPath from, JsonPath holder, CompiledExpression until, Limits limits)
      implements CompiledPaginate {
    @Override
    public <T> T accept(Visitor<T> visitor) {
      return visitor.cursor(this);
    }
  }

  /**
   * {@code page}: numbered pages from {@code start}, sent as {@code param} (null: the request uses
   * {@code page.number}); {@code size} (null: none) sent as {@code sizeParam}; {@code endStatus}
   * answers after the first page end the listing; {@code stopOnShortPage} ends at a short page.
   */
  record Numbered(
      String param,
      int start,
      Integer size,
      String sizeParam,
      Set<Integer> endStatus,
      boolean stopOnShortPage,
      Limits limits)
      implements CompiledPaginate {
    @Override
    public <T> T accept(Visitor<T> visitor) {
      return visitor.numbered(this);
    }
  }
}
