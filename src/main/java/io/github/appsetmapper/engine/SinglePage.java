package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledPaginate;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.UpstreamRequest;

/** No {@code paginate}: the listing is its first page. */
record SinglePage(PageSource source) implements Paginator {
  private static final CompiledPaginate.Limits ONE = new CompiledPaginate.Limits(1, false);

  @Override
  public UpstreamRequest first() throws RequestFailure {
    return source.render(1, null);
  }

  @Override
  public UpstreamRequest next(Page page, int number) {
    return null;
  }

  @Override
  public CompiledPaginate.Limits limits() {
    return ONE;
  }
}
