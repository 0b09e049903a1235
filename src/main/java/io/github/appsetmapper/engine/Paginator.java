package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledPaginate;
import io.github.appsetmapper.compile.RowPath;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import java.util.List;

/**
 * How a listing goes from one page to the next: one type per {@code paginate} mode, a fresh one per
 * walk over the pages (it remembers what it saw: the cursors given, the URLs fetched, the pages
 * read, and what each promised, {@link WalkPromises}). {@link ListingWalk} drives it.
 */
sealed interface Paginator permits SinglePage, LinkPaginator, CursorPaginator, NumberedPaginator {

  /** Renders the request for one page: its number (1 for the first) and the cursor (or null). */
  @FunctionalInterface
  interface PageSource {
    UpstreamRequest render(int number, String cursor) throws RequestFailure;
  }

  /**
   * How many elements a page holds ({@link Page#elementValues}): the one count every mode compares
   * with the totals a page announces, and page mode with {@code size}.
   */
  interface ElementCount {
    int elements(Page page) throws RequestFailure;

    /** The elements {@link #elements} counts, as they are: what tells a page read twice. */
    List<Object> values(Page page) throws RequestFailure;

    /**
     * The rows the listing reads on this page, as they are in its body: the elements, or what a
     * path that descends into each selects ({@code $.orgs.nodes[*].repos.nodes[*]}: the repos).
     */
    default List<Object> rows(Page page) throws RequestFailure {
      return values(page);
    }

    /**
     * Where the GraphQL connections the listing's path walks through are on this page (see {@link
     * io.github.appsetmapper.compile.RowPath#connections}), or null: not known from a path, found
     * from the rows.
     */
    default List<String> connections(Page page) throws RequestFailure {
      return null;
    }

    /** Whether the page is read as a listing (not one value a definite path names). */
    default boolean listing(Page page) throws RequestFailure {
      return true;
    }

    /**
     * With {@code list.entries}: the rows are the entries of the objects {@code objects} selects,
     * so those are what a page holds (counted as the list reads them, never as a list at {@code
     * items}, which is an object).
     */
    static ElementCount entries(RowPath objects, RowPath each) {
      return new ElementCount() {
        @Override
        public int elements(Page page) throws RequestFailure {
          return page.entryRows(objects, each).size();
        }

        @Override
        public List<Object> values(Page page) throws RequestFailure {
          return page.entryRows(objects, each);
        }
      };
    }

    /**
     * An enrich read without an indefinite {@code select}: its definite {@code select} ({@code
     * select}), or the whole body (null: a {@code value} over {@code response.body}, or the body
     * kept). A listing by {@link RowPath#listing}'s rule, when what it reads is a list: then a page
     * of it is checked as an indefinite {@code select}'s would be; one value is not. Null (no
     * check) for a step that never reads the body.
     */
    static ElementCount read(com.jayway.jsonpath.JsonPath select, boolean readsNoBody) {
      if (readsNoBody) {
        return null;
      }
      return new ElementCount() {
        private List<Object> list(Page page) throws RequestFailure {
          Object body = page.lenient();
          Object value = body;
          if (select != null && (body instanceof java.util.Map || body instanceof List)) {
            try {
              value = select.read(body, io.github.appsetmapper.compile.JsonPaths.CONFIGURATION);
            } catch (com.jayway.jsonpath.PathNotFoundException e) {
              value = null;
            }
          } else if (select != null) {
            value = null;
          }
          @SuppressWarnings("unchecked")
          List<Object> values = value instanceof List<?> found ? (List<Object>) found : null;
          return values;
        }

        @Override
        public int elements(Page page) throws RequestFailure {
          List<Object> values = list(page);
          return values == null ? 0 : values.size();
        }

        @Override
        public List<Object> values(Page page) throws RequestFailure {
          List<Object> values = list(page);
          return values == null ? List.of() : values;
        }

        @Override
        public boolean listing(Page page) throws RequestFailure {
          return list(page) != null;
        }
      };
    }

    /**
     * Counted and read by {@code path}, a failure naming {@code field}; null without a path (an
     * enrich's definite {@code select}: one value, not a listing).
     */
    static ElementCount of(RowPath path, String field) {
      if (path == null) {
        return null;
      }
      return new ElementCount() {
        @Override
        public int elements(Page page) throws RequestFailure {
          return page.elementValues(path, field).size();
        }

        @Override
        public List<Object> values(Page page) throws RequestFailure {
          return page.elementValues(path, field);
        }

        @Override
        public boolean listing(Page page) throws RequestFailure {
          return page.listing(path, field);
        }

        @Override
        public List<Object> rows(Page page) throws RequestFailure {
          return page.rows(path, field);
        }

        @Override
        public List<String> connections(Page page) throws RequestFailure {
          return path.connections(page.json());
        }
      };
    }
  }

  /** The request for the first page. */
  UpstreamRequest first() throws RequestFailure;

  /**
   * The request for the page after {@code page}, the {@code number}th, or null when it is the last.
   */
  UpstreamRequest next(Page page, int number) throws RequestFailure;

  /**
   * Whether {@code page}, the {@code number}th (after the first), ends the listing with its status
   * rather than failing it; a 502 when an earlier page promised more.
   */
  default boolean endsAt(Page page, int number) throws RequestFailure {
    return false;
  }

  /** The most pages, and what reaching it does. */
  CompiledPaginate.Limits limits();

  static Paginator of(
      CompiledPaginate paginate, PageSource source, Scope scope, ElementCount elements) {
    if (paginate == null) {
      return new SinglePage(source, elements);
    }
    return paginate.accept(
        new CompiledPaginate.Visitor<Paginator>() {
          @Override
          public Paginator linkHeader(CompiledPaginate.LinkHeader mode) {
            return new LinkPaginator(source, mode, null, elements);
          }

          @Override
          public Paginator nextUrl(CompiledPaginate.NextUrl mode) {
            return new LinkPaginator(source, null, mode, elements);
          }

          @Override
          public Paginator cursor(CompiledPaginate.Cursor mode) {
            return new CursorPaginator(source, mode, scope, elements);
          }

          @Override
          public Paginator numbered(CompiledPaginate.Numbered mode) {
            return new NumberedPaginator(source, mode, elements);
          }
        });
  }
}
