package io.github.appsetmapper.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The one codec's reading and writing policy, checked without a server. */
class JsonCodecTest {
  @Nested
  class Reading {
    @Test
    void plainDataWithExactNumbers() throws Exception {
      Object read =
          JsonCodec.read("{\"a\":[1,5000000000,123456789012345678901234567890,1.50,1e3]}");
      assertThat(read)
          .isEqualTo(
              Map.of(
                  "a",
                  List.of(
                      1,
                      5_000_000_000L,
                      new BigInteger("123456789012345678901234567890"),
                      new BigDecimal("1.50"),
                      new BigDecimal("1e3"))));
    }

    @Test
    void aKeyTwiceInOneObjectIsRefused() {
      assertThatThrownBy(() -> JsonCodec.read("{\"items\":[1],\"items\":[]}"))
          .isInstanceOfSatisfying(
              JsonRefusal.class,
              e -> {
                assertThat(e.kind()).isEqualTo(JsonRefusal.Kind.DUPLICATE_KEY);
                assertThat(e.located())
                    .isEqualTo("has the key 'items' twice in one object (line 1, column 21)");
              });
    }

    @Test
    void aDuplicateKeyIsQuotedWholeUnlessTheReaderCutsItAfterRedacting() {
      String key = "k".repeat(300);
      assertThatThrownBy(() -> JsonCodec.read("{\"" + key + "\":1,\"" + key + "\":2}"))
          .isInstanceOfSatisfying(
              JsonRefusal.class,
              e -> {
                assertThat(e.reason()).isEqualTo("has the key '" + key + "' twice in one object");
                assertThat(e.located(text -> text.replace("k", "") + "[cut]"))
                    .startsWith("has the key '[cut]' twice in one object (line 1,");
              });
    }

    @ParameterizedTest
    @ValueSource(
        strings = {
          "{\"a\":SECRETTOKENVALUE0123456789}",
          "[SECRETTOKENVALUE0123456789]",
          "SECRETTOKENVALUE0123456789",
          "{\"a\":\"x\" SECRETTOKENVALUE0123456789}"
        })
    void jacksonQuotesNoRunOfTheDocumentItRefuses(String json) {
      assertThatThrownBy(() -> JsonCodec.read(json))
          .isInstanceOfSatisfying(
              JsonRefusal.class,
              e -> assertThat(e.located()).doesNotContain("SECRETT").contains("not valid JSON"));
    }

    @Test
    void theSameKeyInTwoObjectsIsFine() throws Exception {
      assertThat(JsonCodec.read("[{\"a\":1},{\"a\":2}]"))
          .isEqualTo(List.of(Map.of("a", 1), Map.of("a", 2)));
    }

    @ParameterizedTest
    @ValueSource(
        strings = {
          "1e999999999",
          "1e2147483647",
          "-1E-2147483648",
          "1e1001",
          "1.0e-1001",
          "0.1e00000001001"
        })
    void anExponentBeyondTheBoundsIsRefusedBeforeAnyConversion(String number) {
      assertThatThrownBy(() -> JsonCodec.read("[" + number + "]"))
          .isInstanceOfSatisfying(
              JsonRefusal.class,
              e ->
                  assertThat(e.located())
                      .isEqualTo(
                          "has a number beyond the bounds (at most 1000 digits and an exponent"
                              + " within \u00b11000) (line 1, column 2)"));
    }

    @Test
    void theBoundsThemselvesAreAccepted() throws Exception {
      assertThat(JsonCodec.read("[1e1000,1e-1000,1e0001000]")).asList().hasSize(3);
      assertThat(JsonCodec.read("[" + "9".repeat(1000) + "]")).asList().hasSize(1);
      assertThat(JsonCodec.read("[0." + "1".repeat(999) + "]")).asList().hasSize(1);
    }

    @Test
    void moreDigitsAreRefused() {
      assertThatThrownBy(() -> JsonCodec.read("[" + "9".repeat(1001) + "]"))
          .isInstanceOfSatisfying(
              JsonRefusal.class, e -> assertThat(e.kind()).isEqualTo(JsonRefusal.Kind.NUMBER));
      assertThatThrownBy(() -> JsonCodec.read("[1." + "0".repeat(1000) + "]"))
          .isInstanceOfSatisfying(
              JsonRefusal.class, e -> assertThat(e.kind()).isEqualTo(JsonRefusal.Kind.NUMBER));
    }

    @Test
    void anythingAfterTheValueIsRefused() {
      assertThatThrownBy(() -> JsonCodec.read("{\"items\":[]} {\"items\":[1]}"))
          .isInstanceOfSatisfying(
              JsonRefusal.class, e -> assertThat(e.kind()).isEqualTo(JsonRefusal.Kind.SYNTAX));
    }

    @Test
    void deepNestingIsRefusedNotAStackOverflow() {
      String deep = "[".repeat(100_000) + "]".repeat(100_000);
      assertThatThrownBy(() -> JsonCodec.read(deep))
          .isInstanceOfSatisfying(
              JsonRefusal.class, e -> assertThat(e.kind()).isEqualTo(JsonRefusal.Kind.LIMIT));
    }

    @Test
    void theEstimateGrowsWithTheValuesNotOnlyTheBytes() throws Exception {
      long zeros = JsonCodec.measure(("[" + "0,".repeat(999) + "0]").getBytes()).bytes();
      long text = JsonCodec.measure(("[\"" + "x".repeat(1999) + "\"]").getBytes()).bytes();
      assertThat(zeros).isGreaterThan(8 * 2000);
      assertThat(text).isLessThan(zeros);
    }
  }

  @Nested
  class Writing {
    @Test
    void numbersArePlain() {
      assertThat(JsonCodec.write(List.of(new BigDecimal("1E+7"), new BigDecimal("0.10"))))
          .isEqualTo("[10000000,0.10]");
    }

    @Test
    void aNumberWhosePlainFormWouldBeHugeKeepsItsScientificForm() {
      BigDecimal huge = new BigDecimal("1E+999999999");
      assertThat(Numbers.plain(huge)).isEqualTo("1E+999999999");
      assertThat(JsonCodec.write(List.of(huge))).isEqualTo("[1E+999999999]");
      assertThat(Numbers.plain(new BigDecimal("1E+1000"))).hasSize(1001);
    }

    @Test
    void everyNumberAnExpressionComputesIsPlain() {
      // The scale bound of the expression layer's numbers, on both sides, and just past it.
      assertThat(Numbers.plain(new BigDecimal("1E+10000"))).isEqualTo("1" + "0".repeat(10_000));
      assertThat(Numbers.plain(new BigDecimal("1E-10000")))
          .isEqualTo("0." + "0".repeat(9999) + "1");
      assertThat(Numbers.plain(new BigDecimal("1E+10001"))).isEqualTo("1E+10001");
      assertThat(Numbers.plain(new BigDecimal("1E-10001"))).isEqualTo("1E-10001");
    }
  }

  @Test
  void aNumberIsEstimatedAsItWillBeWritten() {
    java.math.BigDecimal huge = new java.math.BigDecimal("1e999");
    assertThat(JsonCodec.write(huge)).hasSize(1000);
    // Its text twice (as a string's), and at least what the same text as a string counts.
    assertThat(JsonCodec.estimate(huge)).isGreaterThanOrEqualTo(2 * 1000L);
    assertThat(JsonCodec.estimate(java.util.List.of(huge, huge))).isGreaterThanOrEqualTo(4 * 1000L);
    for (String text :
        new String[] {"-1e999", "1e-9999", "-0.000001234", "123456.789", "1e10001"}) {
      java.math.BigDecimal number = new java.math.BigDecimal(text);
      assertThat(WrittenNumbers.length(number))
          .as(text)
          .isGreaterThanOrEqualTo(JsonCodec.write(number).length());
    }
    for (Number number :
        new Number[] {
          Long.MIN_VALUE,
          -7,
          new java.math.BigInteger("-" + "9".repeat(500)),
          1.5e300,
          -Float.MAX_VALUE
        }) {
      assertThat(WrittenNumbers.length(number))
          .as(number.toString())
          .isGreaterThanOrEqualTo(JsonCodec.write(number).length());
    }
  }
}
