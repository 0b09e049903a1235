package io.github.appsetmapper.config;

/**
 * {@code maxDrop}: the most rows an answer may lose against the last good answer for the same
 * mapping, input and ApplicationSet, as a count ({@code 10}) or a percentage ({@code 50%}).
 */
public record MaxDrop(int amount, boolean percent) {

  /** Whether going from {@code before} rows to {@code now} rows drops more than allowed. */
  public boolean refuses(int before, int now) {
    int dropped = before - now;
    if (dropped <= 0) {
      return false;
    }
    return percent ? (long) dropped * 100 > (long) before * amount : dropped > amount;
  }

  @Override
  public String toString() {
    return percent ? amount + "%" : Integer.toString(amount);
  }

  /** Parses {@code 50%} or {@code 10}; null when the text is neither. */
  static MaxDrop parse(String text) {
    String value = text.trim();
    boolean percent = value.endsWith("%");
    String number = percent ? value.substring(0, value.length() - 1).trim() : value;
    if (!number.matches("\\d{1,9}")) {
      return null;
    }
    int amount = Integer.parseInt(number);
    if (percent && amount > 100) {
      return null;
    }
    return new MaxDrop(amount, percent);
  }
}
