package io.github.appsetmapper.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The path segment check, piece by piece: a segment without a slash takes a path of its own (no
 * pattern split), and must refuse the same dot steps, {@code ;parameters} cut, as the split does.
 */
class PathSegmentsTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      value = {
        "v1 | -",
        "a.b | -",
        "... | -",
        ". | a '.' path segment",
        ".. | a '..' path segment",
        "%2e%2E | a path segment that is '..' once percent-decoded",
        "..;jsessionid=1 | a path segment with a '..' step once percent-decoded",
        ".;x | a path segment with a '.' step once percent-decoded",
        "%2e%2e;x | a path segment with a '..' step once percent-decoded",
        "a;..| -",
        "a%2F.. | a path segment with a '..' step once percent-decoded",
        "a%5C..;x | a path segment with a '..' step once percent-decoded",
        "..%2Fa | a path segment with a '..' step once percent-decoded",
        "a%2Fb%5Cc | -",
        "%252e%252e | a path segment that is '..' once percent-decoded",
        "%2F | -",
      })
  void aDotStepIsRefusedWithOrWithoutASlash(String segment, String problem) {
    assertThat(PathSegments.problem(segment.strip())).isEqualTo(problem);
  }
}
