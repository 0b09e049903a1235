package io.github.appsetmapper.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A test file's values and a mapping's data are read by one rule ({@link YamlScalars}), YAML 1.2's
 * or the text as typed, never YAML 1.1's surprises: {@code 010} was 8 in a test file, {@code 22:22}
 * was 1342, {@code on} and {@code yes} were true in both.
 */
class YamlOneOneTest {
  private static Object testFileValue(String text) {
    Object data = YamlLimits.TEST.data(YamlLimits.TEST.documents("v: " + text + "\n").get(0));
    return ((Map<?, ?>) data).get("v");
  }

  private static Object mappingValue(String text) throws Exception {
    MappingSpec spec =
        MappingParser.parse(
                "m.yaml",
                "name: m\ninput:\n  v: {type: any, default: "
                    + text
                    + "}\nlist:\n  request: {url: \"https://api.example.com/a\"}\n  items: \"$[*]\"\n"
                    + "parameters:\n  x: item\n")
            .get(0);
    return spec.input().get("v").defaultValue();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "010 | 10",
        "22:22 | 22:22",
        "0x1F | 31",
        "1_000 | 1_000",
        "1_000.5 | 1_000.5",
        "-12 | -12",
        "0b101 | 0b101",
        "n | n",
        "true | true",
        "false | false",
        "7 | 7",
      })
  void aTestFileReadsAValueAsAMappingDoes(String typed, String read) throws Exception {
    assertThat(String.valueOf(testFileValue(typed))).isEqualTo(read);
    assertThat(String.valueOf(mappingValue(typed))).isEqualTo(read);
    assertThat(testFileValue(typed).getClass()).isIn(mappingValue(typed).getClass(), Integer.class);
  }

  /**
   * YAML 1.1's other booleans: a test file reads them as text; a mapping refuses them in its data
   * (EitherWayScalarsTest), since a default or a body value read either way is silently wrong.
   */
  @ParameterizedTest
  @CsvSource({"on", "yes", "off", "No"})
  void yamlOneOneBooleansAreTextInATestFileAndRefusedInAMapping(String typed) throws Exception {
    assertThat(testFileValue(typed)).isEqualTo(typed);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> mappingValue(typed))
        .hasMessageContaining("is a boolean in YAML 1.1 and text in YAML 1.2");
  }
}
