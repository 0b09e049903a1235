package io.github.appsetmapper.server;

import java.time.Instant;

/**
 * How a served mapping came to be: its source file, when that version loaded, and the error of the
 * last reload of its file when that failed (then the previous version keeps serving).
 */
public record MappingStatus(String source, Instant loadedAt, String lastError) {
  public boolean current() {
    return lastError == null;
  }
}
