package io.github.appsetmapper.shadow;

import io.github.appsetmapper.json.JsonCodec;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the candidates did, per mapping: runs by outcome, and the newest differences (already
 * redacted, bounded in rows and each value shortened), oldest dropped first: at most {@code keep}
 * per mapping and at most {@code maxBytes} (by {@link JsonCodec#estimate}) for all mappings
 * together, so large rows can never make the shadow hold more than its share of memory. Only names
 * of loaded mappings are keys.
 */
final class Differences {
  private final int keep;
  private final long maxBytes;
  private final Map<String, Book> books = new ConcurrentHashMap<>();
  private long bytes;

  private record Kept(Map<String, Object> entry, long bytes) {}

  private static final class Book {
    final Deque<Kept> newest = new ArrayDeque<>();
    final Map<String, AtomicLong> runs = new ConcurrentHashMap<>();
    long bytes;
  }

  Differences(int keep, long maxBytes) {
    this.keep = keep;
    this.maxBytes = maxBytes;
  }

  void run(String mapping, String outcome) {
    books
        .computeIfAbsent(mapping, m -> new Book())
        .runs
        .computeIfAbsent(outcome, o -> new AtomicLong())
        .incrementAndGet();
  }

  void difference(String mapping, Map<String, Object> entry) {
    Book book = books.computeIfAbsent(mapping, m -> new Book());
    Map<String, Object> stamped = new LinkedHashMap<>();
    stamped.put("at", Instant.now().toString());
    stamped.putAll(entry);
    long size = JsonCodec.estimate(stamped);
    if (size > maxBytes / 4) {
      // One difference past a quarter of the share is kept as its counts only.
      Map<String, Object> small = new LinkedHashMap<>();
      small.put("at", stamped.get("at"));
      for (String key : List.of("label", "applicationSetName", "changed", "before", "after")) {
        if (entry.containsKey(key)) {
          small.put(key, entry.get(key));
        }
      }
      small.put("counts", entry.get("counts"));
      small.put("note", "too large to keep (about " + size + " bytes); counts only");
      stamped = small;
      size = JsonCodec.estimate(stamped);
    }
    synchronized (this) {
      book.newest.addFirst(new Kept(stamped, size));
      book.bytes += size;
      bytes += size;
      while (book.newest.size() > keep) {
        drop(book);
      }
      while (bytes > maxBytes) {
        drop(largest());
      }
    }
  }

  private void drop(Book book) {
    Kept oldest = book.newest.removeLast();
    book.bytes -= oldest.bytes();
    bytes -= oldest.bytes();
  }

  private Book largest() {
    Book largest = null;
    for (Book book : books.values()) {
      if (!book.newest.isEmpty() && (largest == null || book.bytes > largest.bytes)) {
        largest = book;
      }
    }
    return largest;
  }

  /** Bytes of the differences kept, estimated. */
  synchronized long bytes() {
    return bytes;
  }

  /** Runs by outcome. */
  Map<String, Long> runs(String mapping) {
    Map<String, Long> out = new java.util.TreeMap<>();
    Book book = books.get(mapping);
    if (book != null) {
      book.runs.forEach((k, v) -> out.put(k, v.get()));
    }
    return out;
  }

  /** The kept differences, newest first. */
  List<Map<String, Object>> newest(String mapping) {
    Book book = books.get(mapping);
    if (book == null) {
      return List.of();
    }
    synchronized (this) {
      List<Map<String, Object>> out = new ArrayList<>();
      book.newest.forEach(k -> out.add(k.entry()));
      return out;
    }
  }
}
