package io.github.appsetmapper.secret;

/**
 * The work of one redaction, in bytes: each byte a decoding reads to make a view, each byte a
 * search looks at or compares, and a Unicode segment normalised counted as its length squared (the
 * bound of the reordering of its marks the normaliser does). Tests hold a redaction to a linear
 * bound in the text's length with it ({@link Redactor#steps}); nothing else reads it.
 */
final class Steps {
  private long count;

  void add(long bytes) {
    count += bytes;
  }

  long count() {
    return count;
  }
}
