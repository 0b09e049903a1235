package io.github.appsetmapper.secret;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The last wall between a secret and an answer, an explain report or a log line: every secret value
 * in use (secrets read from files and the environment, every fetched token) is held here, and every
 * text that leaves the process is scrubbed of it in whatever form it took on the wire. The text is
 * searched as it is and with its encodings undone (percent-encoding in either case and with '+' for
 * a space, twice for a re-encoded link; JSON string escapes; base64 in both alphabets at every
 * alignment, which covers {@code Basic} credentials and a secret inside any base64 string; HTML
 * character references, a name in any case; quoted-printable; each view without line breaks and
 * invisible characters, which joins a secret folded over two lines: {@link Folds}; each view in
 * Unicode's NFKC form too, which finds a secret echoed decomposed or in fullwidth letters: {@link
 * Normalized}), and for the secret reversed, in ROT13 or doubled too ({@link TextEchoes}): the
 * characters a match came from become {@code ***}.
 *
 * <p>Redact before cutting: a text cut first leaves a secret's prefix that no longer matches.
 * {@link #excerpt} does both in that order; every shortened message goes through it.
 *
 * <p>The set is bounded by what is live: a holder releases its value when it stops using it (a
 * token dropped from the cache, a secret file rotated), and the value is still scrubbed for {@link
 * #GRACE} after, so that a call that used it just before can still not leak it.
 */
public final class Redactor {
  /** Shorter values would scrub ordinary words; a secret that short is not worth the name. */
  static final int MIN_LENGTH = 4;

  /** Longer than any answer can take, so that a value is scrubbed while any call may hold it. */
  public static final Duration GRACE = Duration.ofMinutes(10);

  private static final String MASK = "***";

  /** Something using a secret value; releasing it lets the value go once no one else holds it. */
  public interface Held {
    /** Idempotent. */
    void release();
  }

  private static final Held NOTHING = () -> {};

  private final LongSupplier nanoTime;
  private final long graceNanos;
  private final Map<String, Integer> holders = new HashMap<>();
  private final Map<String, Long> retiredUntil = new HashMap<>();

  /** The forms of every value held or retired, computed once per value (rebuilds reuse them). */
  private final Map<String, NeedleIndex.Needles> forms = new HashMap<>();

  private volatile NeedleIndex index = NeedleIndex.EMPTY;

  /**
   * Credentials of the process itself (a proxy's user info from {@code http_proxy}): born once from
   * the environment, sent by whatever transport any runtime builds, so every redactor of the
   * process scrubs them, for as long as it runs.
   */
  private static final Map<String, NeedleIndex.Needles> PROCESS_FORMS = new HashMap<>();

  /** Handles not yet released per process value (guarded by PROCESS_FORMS). */
  private static final Map<String, Integer> PROCESS_HOLDERS = new HashMap<>();

  private static volatile NeedleIndex processIndex = NeedleIndex.EMPTY;

  /** When the soonest released value stops being scrubbed; {@link #NONE} when none is. */
  private volatile long nextExpiry = NONE;

  private static final long NONE = Long.MIN_VALUE;

  public Redactor() {
    this(System::nanoTime, GRACE);
  }

  /** With a clock for the grace period (tests). */
  public Redactor(LongSupplier nanoTime, Duration grace) {
    this.nanoTime = nanoTime;
    this.graceNanos = grace.toNanos();
  }

  /**
   * Scrubs {@code value} until the returned handle is released, and for the grace period after:
   * whole, and any run of eight of its bytes (an echo cut short still gives a secret away).
   */
  public Held hold(String value) {
    return hold(value, true);
  }

  /**
   * As {@link #hold(String)}, but only the whole value (in each of its forms) is scrubbed: for a
   * value computed from a secret, which may also hold a template's own text ({@code
   * https://api/...?t=}), whose runs would blank ordinary words; the secret it came from is held
   * with its runs.
   */
  Held holdWhole(String value) {
    return hold(value, false);
  }

  private Held hold(String value, boolean runs) {
    if (value == null || value.length() < MIN_LENGTH) {
      return NOTHING;
    }
    synchronized (this) {
      expire(nanoTime.getAsLong());
      boolean known = holders.containsKey(value) || retiredUntil.remove(value) != null;
      holders.merge(value, 1, Integer::sum);
      NeedleIndex.Needles had = forms.get(value);
      if (!known || had == null || (runs && !had.runs())) {
        forms.put(value, new NeedleIndex.Needles(NeedleIndex.forms(value), runs));
        rebuild();
      }
    }
    return new Held() {
      private boolean released;

      @Override
      public void release() {
        synchronized (Redactor.this) {
          if (!released) {
            released = true;
            letGo(value);
          }
        }
      }
    };
  }

  /**
   * A holder for the values one getparams computes from secrets, scrubbed from when they are added
   * until it is closed (and for the grace period after).
   */
  public DerivedSecrets derived() {
    return new DerivedSecrets(this);
  }

  /**
   * Scrubs {@code value} in every redactor of this process until it ends: for credentials the
   * process holds from its start (a proxy's user info), whichever runtime's transport sends them.
   */
  public static void holdForTheProcess(String value) {
    holdForTheProcessUntilReleased(value);
  }

  /**
   * As {@link #holdForTheProcess}, until every handle taken for the value is released: for a
   * credential that can be replaced while the process runs (the server's token file, re-read on a
   * rotation), so that a thousand rotations leave the current tokens held, not a thousand.
   */
  public static Held holdForTheProcessUntilReleased(String value) {
    if (value == null || value.length() < MIN_LENGTH) {
      return NOTHING;
    }
    synchronized (PROCESS_FORMS) {
      PROCESS_HOLDERS.merge(value, 1, Integer::sum);
      if (PROCESS_FORMS.putIfAbsent(value, new NeedleIndex.Needles(NeedleIndex.forms(value), true))
          == null) {
        processIndex = NeedleIndex.of(PROCESS_FORMS.values());
      }
    }
    return new Held() {
      private boolean released;

      @Override
      public void release() {
        synchronized (PROCESS_FORMS) {
          if (released) {
            return;
          }
          released = true;
          if (PROCESS_HOLDERS.merge(value, -1, Integer::sum) == 0) {
            PROCESS_HOLDERS.remove(value);
            PROCESS_FORMS.remove(value);
            processIndex = NeedleIndex.of(PROCESS_FORMS.values());
          }
        }
      }
    };
  }

  /** Values every redactor of the process scrubs now (tests: what rotations leave held). */
  static int heldForTheProcess() {
    synchronized (PROCESS_FORMS) {
      return PROCESS_FORMS.size();
    }
  }

  /**
   * The texts {@code value} takes on the wire before any base64, in this order (equal ones
   * repeated, so that the forms of two values pair up): as it is, percent-encoded (RFC 3986) and
   * form-encoded ({@code application/x-www-form-urlencoded}, as RFC 6749 encodes an OAuth2 client's
   * id and secret before Basic). What {@link #redact} looks for, for the one that must replace a
   * value rather than mask it ({@code record}).
   */
  public static List<String> wireForms(String value) {
    return NeedleIndex.textForms(value);
  }

  /** Scrubs {@code value} for the grace period: for a value used once (a signed request JWT). */
  public void remember(String value) {
    hold(value).release();
  }

  /** As {@link #remember}, the whole value only (see {@link #holdWhole}). */
  void rememberWhole(String value) {
    holdWhole(value).release();
  }

  /**
   * A scalar of data that is answered or shown: a text as {@link #redact} gives it, a number
   * checked as the text it is written as (an upstream may echo a numeric secret as a bare JSON
   * number, which {@code keepTypes} keeps a number) and replaced by that text redacted when it
   * holds one; anything else as it is.
   */
  public Object redactScalar(Object value) {
    return scalar(value, this::redact);
  }

  /** {@link #redactScalar} with another redaction of texts (a recorder's, a report's). */
  public static Object scalar(Object value, java.util.function.UnaryOperator<String> redact) {
    if (value instanceof String text) {
      return redact.apply(text);
    }
    if (value instanceof Number number) {
      String text = io.github.appsetmapper.json.Numbers.written(number);
      String redacted = redact.apply(text);
      return redacted.equals(text) ? number : redacted;
    }
    return value;
  }

  public String redact(String text) {
    Spans spans = search(text, new Steps());
    return spans == null || spans.isEmpty() ? text : spans.mask(text, MASK);
  }

  /** The work {@link #redact} does on {@code text} (tests: its bound). */
  long steps(String text) {
    Steps steps = new Steps();
    search(text, steps);
    return steps.count();
  }

  /** Where {@code text} holds a value in any of its views, null when it cannot hold any. */
  private Spans search(String text, Steps steps) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    long next = nextExpiry;
    if (next != NONE && nanoTime.getAsLong() - next >= 0) {
      synchronized (this) {
        expire(nanoTime.getAsLong());
      }
    }
    NeedleIndex needles = index;
    NeedleIndex process = processIndex;
    if (needles.isEmpty() && process.isEmpty()) {
      return null;
    }
    // Most answer values are shorter than any secret: no view to build, nothing to search.
    if (!longEnough(text, Math.min(needles.shortest(), process.shortest()))) {
      return null;
    }
    return TextSearch.of(text, needles, process, steps);
  }

  /**
   * Whether {@code text} may reach {@code bytes} in any view: its UTF-8 bytes (a lone surrogate as
   * one '?', as {@link TextView#of} writes it) bound every view but one, since each decoding
   * (percent, JSON and HTML escapes, base64) makes fewer bytes than the characters it reads. The
   * NFKC view may be longer: one code point becomes up to {@value #MOST_NFKC_BYTES} bytes (U+FDFA),
   * so a character past ASCII, and a '%', '&' or backslash that may stand for one, counts that much
   * ({@code ㌀} is {@code アパート} there). A text of plain ASCII, most, is counted as it is.
   */
  static boolean longEnough(String text, int bytes) {
    long count = 0;
    for (int i = 0; i < text.length() && count < bytes; i++) {
      char c = text.charAt(i);
      count += c < 0x80 && c != '%' && c != '&' && c != '\\' ? 1 : MOST_NFKC_BYTES;
    }
    return count >= bytes;
  }

  /** The most UTF-8 bytes NFKC makes of one code point (U+FDFA, a phrase of 18 letters). */
  static final int MOST_NFKC_BYTES = 33;

  /**
   * {@code text} on one line (runs of white space as one space), redacted, then cut to {@code max}
   * characters with "..." when longer: the order that never leaves a secret's prefix behind.
   */
  public String excerpt(String text, int max) {
    // Redacted before its line breaks are joined (a secret folded over two lines, or split by a
    // quoted-printable soft break, is whole only in the text as it came) and after (a secret
    // holding a space, echoed with a tab or a line break there, is whole only once joined).
    String oneLine = redact(redact(text).replaceAll("\\s+", " ").strip());
    return io.github.appsetmapper.text.Printable.cut(oneLine, max);
  }

  /**
   * A copy of {@code failure} for a log line: the same classes' names and stack traces, every
   * message (of the causes and suppressed ones too) redacted.
   */
  public Throwable scrub(Throwable failure) {
    return Redacted.of(failure, this);
  }

  /** How many values are scrubbed now (held, or released less than the grace period ago). */
  public synchronized int size() {
    expire(nanoTime.getAsLong());
    return holders.size() + retiredUntil.size();
  }

  private void letGo(String value) {
    int left = holders.merge(value, -1, Integer::sum);
    if (left > 0) {
      return;
    }
    holders.remove(value);
    long until = nanoTime.getAsLong() + graceNanos;
    retiredUntil.put(value, until);
    if (nextExpiry == NONE || until - nextExpiry < 0) {
      nextExpiry = until;
    }
  }

  private void expire(long now) {
    if (nextExpiry == NONE || now - nextExpiry < 0) {
      return;
    }
    boolean removed =
        retiredUntil
            .entrySet()
            .removeIf(
                e -> {
                  boolean over = now - e.getValue() >= 0;
                  if (over) {
                    forms.remove(e.getKey());
                  }
                  return over;
                });
    nextExpiry = retiredUntil.values().stream().reduce((a, b) -> a - b < 0 ? a : b).orElse(NONE);
    if (removed) {
      rebuild();
    }
  }

  private void rebuild() {
    index = NeedleIndex.of(forms.values());
  }
}
