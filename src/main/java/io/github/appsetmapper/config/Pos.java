package io.github.appsetmapper.config;

/** Where a value stands in a mapping file: the prefix of every load error. */
public record Pos(String file, int line, int column, String path) {

  public Pos at(String childPath) {
    return new Pos(file, line, column, childPath);
  }

  @Override
  public String toString() {
    return file + ":" + line + ":" + column + (path.isEmpty() ? "" : " " + path);
  }
}
