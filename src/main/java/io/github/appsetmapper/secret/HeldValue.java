package io.github.appsetmapper.secret;

import java.lang.ref.Cleaner;

/**
 * The value a secret source currently holds in the redactor: a new value replaces the old one (a
 * rotated file), and the value is let go once the source itself is gone (a mapping dropped by a
 * reload), so the redactor holds only what loaded mappings can still send.
 */
final class HeldValue {
  /** One daemon thread for the process; it only runs {@link State#run()}, which holds no owner. */
  private static final Cleaner CLEANER = Cleaner.create();

  private final Redactor redactor;
  private final boolean whole;
  private final State state = new State();

  /** What the cleaner releases: must not refer to the owner, or the owner is never collected. */
  private static final class State implements Runnable {
    private String value;
    private Redactor.Held held;

    synchronized void use(Redactor redactor, String next, boolean whole) {
      if (next.equals(value)) {
        return;
      }
      Redactor.Held previous = held;
      held = whole ? redactor.holdWhole(next) : redactor.hold(next);
      value = next;
      if (previous != null) {
        previous.release();
      }
    }

    @Override
    public synchronized void run() {
      if (held != null) {
        held.release();
      }
    }
  }

  HeldValue(Object owner, Redactor redactor) {
    this(owner, redactor, false);
  }

  /** {@code whole}: only the whole value is scrubbed (see {@link Redactor#holdWhole}). */
  HeldValue(Object owner, Redactor redactor, boolean whole) {
    this.redactor = redactor;
    this.whole = whole;
    CLEANER.register(owner, state);
  }

  /** Holds {@code value} (once), letting go of the value held before it. */
  String use(String value) {
    state.use(redactor, value, whole);
    return value;
  }
}
