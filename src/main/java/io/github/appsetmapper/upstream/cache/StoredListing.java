package io.github.appsetmapper.upstream.cache;

import io.github.appsetmapper.upstream.call.UpstreamResponse;
import java.util.List;

/**
 * A whole listing as the level shared by every replica keeps it: every page (by the key of the
 * request that fetched it), when it was stored (wall clock, milliseconds), the shared level's
 * {@code version} of it (null while it is this replica's alone) and the {@code seq} of the flight
 * that fetched it (an invalidation with a higher one makes it expired).
 */
public record StoredListing(String version, long seq, long storedAtMillis, List<Page> pages) {
  /** One page: the key of its request ({@link CacheKey}) and the answer. */
  public record Page(String key, UpstreamResponse response) {}

  public StoredListing {
    pages = List.copyOf(pages);
  }

  /** The same pages under the version and seq the shared level gave them. */
  public StoredListing as(String nextVersion, long nextSeq, long nextStoredAtMillis) {
    return new StoredListing(nextVersion, nextSeq, nextStoredAtMillis, pages);
  }

  /** Bytes of bodies, for size caps. */
  public long bodyBytes() {
    long total = 0;
    for (Page page : pages) {
      total += page.response().body().length;
    }
    return total;
  }
}
