package io.github.appsetmapper.redis;

import io.github.appsetmapper.digest.Sha256;
import java.nio.charset.StandardCharsets;

/**
 * The names of everything this server keeps in Redis, under one prefix. Every name is made of
 * digests (SHA-256), never of what they stand for: no URL, input, ApplicationSet or credential is
 * readable from a key name.
 */
final class RedisKeys {
  private final String prefix;

  RedisKeys(String prefix) {
    this.prefix = prefix;
  }

  static String digest(String text) {
    return Sha256.hex(text);
  }

  static byte[] bytes(String name) {
    return name.getBytes(StandardCharsets.UTF_8);
  }

  /** A kept listing; {@code key} is already a digest of its first request (CacheKey). */
  String listing(String key) {
    return prefix + "listing:" + key;
  }

  /** The lease on fetching a listing (its digest). */
  String lease(String flight) {
    return prefix + "lease:" + flight;
  }

  /** What the leader of a flight left for the replicas waiting. */
  String landed(String flight, String token) {
    return prefix + "landed:" + flight + ":" + token;
  }

  /** The counter that orders flights and invalidations. */
  String seq() {
    return prefix + "seq";
  }

  /** The last invalidation of an owner tag. */
  String invalidation(String tag) {
    return prefix + "inv:" + digest(tag);
  }

  String baseline(String mapping, String input, String applicationSet) {
    return prefix + "guard:" + mapping + ":" + input + ":" + applicationSet;
  }

  /** Baselines of one mapping, or of one input of it ({@code input} non-null), for SCAN. */
  String baselines(String mapping, String input) {
    return prefix + "guard:" + mapping + ":" + (input == null ? "" : input + ":") + "*";
  }

  /** The reset generation of a mapping, or of one input of it. */
  String epoch(String mapping, String input) {
    return prefix + "guard-epoch:" + mapping + (input == null ? "" : ":" + input);
  }

  /** A replica's key-check record for its sealing key {@code keyId} ({@link KeyCheck}). */
  String keyCheck(String keyId) {
    return prefix + "keycheck:" + digest(keyId);
  }

  String keyChecks() {
    return prefix + "keycheck:*";
  }

  String channel() {
    return prefix + "events";
  }
}
