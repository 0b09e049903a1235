package io.github.appsetmapper.json;

/**
 * Where a reader reports, while it builds a document, the heap the document has taken so far: an
 * upstream answer is held against the memory budget as it grows, a step at a time, and its reading
 * stops when the next step does not fit. Counted once built, ten MB of small YAML maps (or four
 * answers of five MB of small JSON objects at once) took the JVM's heap before anything was asked.
 */
@FunctionalInterface
public interface Growth {
  /** How far an estimate grows between two reports: small against any budget, rare per byte. */
  long STEP = 1L << 20;

  /** Nothing to hold against (the CLI's own files, tests). */
  Growth NONE = bytes -> {};

  /**
   * The document's estimate has reached {@code bytes}. A reader may report again from 0 (a second
   * reading of the same body), so the receiver holds the most it was told. Throws {@link Stop} to
   * end the read.
   */
  void reached(long bytes);

  /** What a reader keeps to report every {@link #STEP}: the one way both builders report. */
  final class Steps {
    private final Growth growth;
    private long reported;

    Steps(Growth growth) {
      this.growth = growth;
    }

    /** The estimate is now {@code bytes}: reported when it has grown a step since the last. */
    void at(long bytes) {
      if (bytes - reported >= STEP) {
        reported = bytes;
        growth.reached(bytes);
      }
    }
  }

  /** Ends a read from inside {@link #reached}, carrying why; the reader lets it through. */
  final class Stop extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient Exception reason;

    public Stop(Exception reason) {
      super(null, null, false, false);
      this.reason = reason;
    }

    public Exception reason() {
      return reason;
    }
  }
}
