package io.github.appsetmapper.shadow;

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
 * What the candidates did, per mapping: runs by outcome, and the newest {@code keep} differences
 * (already redacted and bounded in rows), oldest dropped first. Only names of loaded mappings are
 * keys, so the memory is bounded by them.
 */
final class Differences {
  private final int keep;
  private final Map<String, Book> books = new ConcurrentHashMap<>();

  private static final class Book {
    final Deque<Map<String, Object>> newest = new ArrayDeque<>();
    final Map<String, AtomicLong> runs = new ConcurrentHashMap<>();
  }

  Differences(int keep) {
    this.keep = keep;
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
    synchronized (book) {
      book.newest.addFirst(stamped);
      while (book.newest.size() > keep) {
        book.newest.removeLast();
      }
    }
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
    synchronized (book) {
      return new ArrayList<>(book.newest);
    }
  }
}
