package io.github.appsetmapper.secret;

import java.util.ArrayList;
import java.util.List;

/**
 * One text searched for every held value ({@link Redactor#redact}): the text and each of its views
 * with encodings undone, each view also base64-decoded and in NFKC, all searched with one pass of
 * each {@link NeedleIndex} (every form of every value at once). Each view is built once per text; a
 * decoding that changes nothing gives no view; a view, or a base64 run, too short to hold the
 * shortest match is not searched. So the work is linear in the text, with a constant bounded by the
 * number of views (and counted: {@link Steps}).
 */
final class TextSearch {
  /** Layers of percent-encoding and JSON escaping undone together, nested in any order. */
  static final int MAX_LAYERS = 3;

  private final NeedleIndex own;
  private final NeedleIndex process;
  private final int shortest;
  private final Steps steps;
  private final Spans spans = new Spans();

  private TextSearch(NeedleIndex own, NeedleIndex process, Steps steps) {
    this.own = own;
    this.process = process;
    this.shortest = Math.min(own.shortest(), process.shortest());
    this.steps = steps;
  }

  /** Where {@code text} holds a form of a value of either index. */
  static Spans of(String text, NeedleIndex own, NeedleIndex process, Steps steps) {
    TextSearch search = new TextSearch(own, process, steps);
    steps.add(text.length());
    for (TextView view : decodings(TextView.of(text), steps)) {
      // Without line breaks and invisible characters (U+200B, U+FEFF, U+00AD): a secret split by
      // a fold is whole again, and a secret holding one is looked for without it (NeedleIndex).
      steps.add(view.length);
      search.view(Folds.unfolded(view));
    }
    return search.spans;
  }

  private void view(TextView view) {
    if (view.length >= shortest) {
      find(view);
      // Base64 at each of the four alignments of every run long enough to hold a match.
      steps.add(view.length);
      for (TextView decoded : view.base64Decoded(base64Chars(shortest))) {
        find(decoded);
      }
    }
    // In another Unicode form (decomposed, fullwidth): null, at no cost, for an ASCII view.
    TextView composed = Normalized.of(view, steps);
    if (composed != null && composed.length >= shortest) {
      find(composed);
    }
  }

  /**
   * The fewest base64 characters that decode to {@code bytes} bytes (three of every four), six at
   * the least (the shortest form, four bytes).
   */
  static int base64Chars(int bytes) {
    return (int) Math.max(6, Math.min(Integer.MAX_VALUE, ((long) bytes * 4 + 2) / 3));
  }

  private void find(TextView view) {
    if (view.length < shortest) {
      return;
    }
    steps.add(view.length);
    steps.add(own.find(view, spans));
    steps.add(process.find(view, spans));
  }

  /**
   * The text and its views with encodings undone: percent-encoding (form encoding too) and JSON
   * string escapes alone, and up to {@value #MAX_LAYERS} layers of both at once, which covers them
   * nested in any order (a JSON string holding JSON, percent-encoded into a next link, echoed in
   * JSON again), each also with HTML character references undone (twice when a name is in another
   * case: {@link TextView#htmlUnescaped(boolean)}). Each built only when the text holds what it
   * would undo, and kept only when it undid something (a decoding that changes nothing gives back
   * the view it read).
   */
  static List<TextView> decodings(TextView plain, Steps steps) {
    List<TextView> out = new ArrayList<>(8);
    out.add(plain);
    boolean percent = plain.contains('%');
    boolean escaped = plain.contains('\\');
    if (percent) {
      add(out, plain, plain.percentDecoded(false), steps);
    }
    if (plain.contains('+')) {
      add(out, plain, plain.percentDecoded(true), steps);
    }
    TextView json = escaped ? plain.jsonUnescaped() : plain;
    if (escaped) {
      steps.add(plain.length);
      add(out, null, json, steps);
    }
    TextView layer = plain;
    for (int depth = 0; depth < MAX_LAYERS && (percent || escaped); depth++) {
      TextView next = layer.layerUndone();
      steps.add(layer.length);
      if (next == layer) {
        break;
      }
      layer = next;
      if (depth > 0 || (percent && escaped)) {
        add(out, null, layer, steps);
      }
      percent = layer.contains('%');
      escaped = layer.contains('\\');
    }
    TextView last = out.get(out.size() - 1);
    if (out.size() > 1 && last.contains('+')) {
      add(out, last, last.percentDecoded(true), steps);
    }
    // An HTML or XML page quoting a value escapes its & ' " < > as character references, around
    // whatever other encoding the value already had.
    for (int v = 0, views = out.size(); v < views; v++) {
      TextView html = out.get(v);
      // Escaped as often as layers are undone above (a page quoting a page: &amp;amp;).
      for (int depth = 0; depth < MAX_LAYERS && html.contains('&'); depth++) {
        TextView next = html.htmlUnescaped();
        steps.add(html.length);
        if (next == html) {
          break;
        }
        if (next.folded) { // &AUML; read as ä; a page upper-cased whole meant Ä
          add(out, html, html.htmlUnescaped(true), steps);
        }
        html = next;
        out.add(html);
      }
    }
    // Quoted-printable (=C3=A4, soft line breaks), as it is and inside a JSON string (after the
    // HTML views: a
    // page quoting quoted-printable is one form too many to pay for on every text).
    for (TextView read : json == plain ? List.of(plain) : List.of(plain, json)) {
      if (read.contains('=')) {
        add(out, read, Folds.quotedPrintable(read), steps);
      }
    }
    return out;
  }

  /** {@code view} unless it is {@code from}, which a decoding that changed nothing gives back. */
  private static void add(List<TextView> out, TextView from, TextView view, Steps steps) {
    if (from != null) {
      steps.add(from.length);
    }
    if (view != from && !out.contains(view)) {
      out.add(view);
    }
  }
}
