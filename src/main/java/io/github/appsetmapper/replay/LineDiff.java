package io.github.appsetmapper.replay;

import java.util.ArrayList;
import java.util.List;

/**
 * A line diff for people: {@code - } expected, {@code + } actual, unchanged lines kept as context
 * around each change (at most {@link #CONTEXT} lines), runs of unchanged lines beyond that shown as
 * {@code ...}. The longest common subsequence of lines, which is plenty for test answers.
 */
public final class LineDiff {
  static final int CONTEXT = 3;

  private LineDiff() {}

  public static List<String> diff(List<String> expected, List<String> actual) {
    int n = expected.size();
    int m = actual.size();
    int[][] common = new int[n + 1][m + 1];
    for (int i = n - 1; i >= 0; i--) {
      for (int j = m - 1; j >= 0; j--) {
        common[i][j] =
            expected.get(i).equals(actual.get(j))
                ? common[i + 1][j + 1] + 1
                : Math.max(common[i + 1][j], common[i][j + 1]);
      }
    }
    List<String> all = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && expected.get(i).equals(actual.get(j))) {
        all.add("  " + expected.get(i++));
        j++;
      } else if (i < n && (j == m || common[i + 1][j] >= common[i][j + 1])) {
        all.add("- " + expected.get(i++));
      } else {
        all.add("+ " + actual.get(j++));
      }
    }
    return withContext(all);
  }

  private static List<String> withContext(List<String> all) {
    boolean[] keep = new boolean[all.size()];
    for (int k = 0; k < all.size(); k++) {
      if (!all.get(k).startsWith("  ")) {
        for (int c = Math.max(0, k - CONTEXT); c <= Math.min(all.size() - 1, k + CONTEXT); c++) {
          keep[c] = true;
        }
      }
    }
    List<String> out = new ArrayList<>();
    boolean skipped = false;
    for (int k = 0; k < all.size(); k++) {
      if (keep[k]) {
        out.add(all.get(k));
        skipped = false;
      } else if (!skipped) {
        out.add("  ...");
        skipped = true;
      }
    }
    return out;
  }
}
