package io.github.appsetmapper.upstream.cache;

import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The pages of one listing fetched in one pass, found by the key of the request that fetched each
 * ({@link CacheKey}): the unit the cache keeps and callers in flight share, so that a listing is
 * always one moment of the upstream. A page whose call failed holds the failure. Immutable once
 * built.
 */
final class Snapshot {
  private final Map<String, Object> pages;

  private Snapshot(Map<String, Object> pages) {
    this.pages = pages;
  }

  /** The answer recorded for {@code key}, its failure, or null when this pass did not fetch it. */
  Object find(String key) {
    return pages.get(key);
  }

  UpstreamResponse response(String key) {
    return pages.get(key) instanceof UpstreamResponse response ? response : null;
  }

  /**
   * Whether the listing may be kept: every page answered (none failed), the first with a 200 or a
   * 203 (a 202 "not done yet" is asked for again, not kept), and none said {@code Cache-Control:
   * no-store}.
   */
  boolean storable() {
    boolean first = true;
    for (Object page : pages.values()) {
      if (!(page instanceof UpstreamResponse response)) {
        return false;
      }
      if (first && response.status() != 200 && response.status() != 203) {
        return false;
      }
      first = false;
      for (String value : response.headers().all("Cache-Control")) {
        if (value.toLowerCase(java.util.Locale.ROOT).contains("no-store")) {
          return false;
        }
      }
    }
    return !pages.isEmpty();
  }

  /** The pages as the shared level keeps them, or null when a page failed. */
  StoredListing stored(long storedAtMillis) {
    java.util.List<StoredListing.Page> out = new java.util.ArrayList<>(pages.size());
    for (Map.Entry<String, Object> page : pages.entrySet()) {
      if (!(page.getValue() instanceof UpstreamResponse response)) {
        return null;
      }
      out.add(new StoredListing.Page(page.getKey(), response));
    }
    return new StoredListing(null, 0, storedAtMillis, out);
  }

  /** The pages of a listing read from the shared level. */
  static Snapshot of(StoredListing listing) {
    Map<String, Object> pages = new LinkedHashMap<>();
    for (StoredListing.Page page : listing.pages()) {
      pages.put(page.key(), page.response());
    }
    return new Snapshot(Collections.unmodifiableMap(pages));
  }

  /** Bytes the cache counts for it. */
  long weight() {
    long total = 0;
    for (Object page : pages.values()) {
      if (page instanceof UpstreamResponse response) {
        total += response.body().length + 256;
        for (var field : response.headers().fields()) {
          total += field.name().length() + field.value().length() + 16;
        }
      }
    }
    return total;
  }

  /** Pages recorded as a pass fetches them. */
  static final class Builder {
    private final Map<String, Object> pages = new LinkedHashMap<>();

    synchronized void add(String key, UpstreamResponse response) {
      pages.put(key, response);
    }

    synchronized void fail(String key, RequestFailure failure) {
      pages.putIfAbsent(key, failure);
    }

    synchronized Snapshot build() {
      return new Snapshot(Collections.unmodifiableMap(new LinkedHashMap<>(pages)));
    }
  }
}
