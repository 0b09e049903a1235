package io.github.appsetmapper.upstream.cache;

import io.github.appsetmapper.upstream.call.CachePolicy;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The level of the cache and of coalescing that every replica shares ({@code serve --redis}: the
 * package {@code redis}); {@link #NONE} is this replica alone, the default. {@link SharedCalls}
 * keeps its own memory in front of it (level 1) and falls back to that memory whenever this level
 * cannot answer: every method answers within a bounded time and never fails a getparams.
 */
public interface SharedLevel {
  /** This replica alone: nothing shared, every question answered "unavailable". */
  SharedLevel NONE = new SharedLevel() {};

  /** What the shared level holds for a listing, as seen by one caller. */
  enum State {
    /** The shared level cannot answer now (down, slow, no connection): judge from memory. */
    UNAVAILABLE,
    /** Nothing usable is shared for this key: the local copy, if any, is not current. */
    ABSENT,
    /** The shared listing is the very copy this replica holds ({@code localVersion}). */
    SAME,
    /** Another listing is shared: {@link Lookup#listing()}, read and verified. */
    OTHER
  }

  /**
   * @param listing the shared listing for {@link State#OTHER}
   * @param invalidated an invalidation for one of the caller's owners came after it was fetched
   */
  record Lookup(State state, StoredListing listing, boolean invalidated) {
    public static final Lookup UNAVAILABLE = new Lookup(State.UNAVAILABLE, null, false);
    public static final Lookup ABSENT = new Lookup(State.ABSENT, null, false);
  }

  /** A listing another replica fetched while this one waited; {@code staleBecause} as led. */
  record Landed(StoredListing listing, String staleBecause) {}

  /** This replica's part in fetching one listing once across replicas. */
  interface Flight {
    /** Not shared: the replica fetches on its own and keeps what it gets to itself. */
    Flight ALONE = new Flight() {};

    /** What another replica fetched while this one waited, or null: this one fetches. */
    default Landed landed() {
      return null;
    }

    /**
     * The walk ended with {@code listing}: handed to the replicas waiting, and kept for {@code
     * keepFor} when non-null (a fresh, storable listing).
     *
     * @return the listing as the shared level keeps it (its version), or null when it was not
     *     shared
     */
    default StoredListing land(StoredListing listing, CachePolicy keepFor, String staleBecause) {
      return null;
    }

    /** The walk stopped early: the replicas waiting fetch on their own. */
    default void abandon() {}
  }

  /**
   * The shared listing for {@code key}, for a caller whose listings are tagged {@code owners};
   * {@code localVersion} and {@code localSeq} are those of the copy this replica holds (null, 0:
   * none), which is confirmed without being read again.
   */
  default Lookup lookup(String key, Set<String> owners, String localVersion, long localSeq) {
    return Lookup.UNAVAILABLE;
  }

  /**
   * Joins the fetch of a listing across replicas: the first replica leads (a lease held while it
   * walks), the others wait for its listing while there is still time, within {@code first}'s
   * deadline, to fetch on their own.
   *
   * @param key the listing's cache key
   * @param flight the listing and its cache policy
   */
  default Flight fly(String key, String flight, UpstreamRequest first) {
    return Flight.ALONE;
  }

  /**
   * Every replica's listings tagged {@code tag} are expired from now on.
   *
   * @return whether every replica will see it (false: this replica only)
   */
  default boolean invalidate(String tag) {
    return false;
  }

  /** Called with each tag another replica invalidated (an authenticated message, to act sooner). */
  default void onInvalidate(Consumer<String> listener) {}
}
