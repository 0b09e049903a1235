package io.github.appsetmapper.upstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** The one request-time failure: one line composed in one place, the cause kept beside it. */
class UpstreamExceptionTest {
  private static final UpstreamRequest CALL =
      UpstreamRequest.builder()
          .method("GET")
          .uri(URI.create("https://user:pw@api.example.com/items?page=2"))
          .build();

  @Test
  void aCallsFailureNamesTheMappingTheStepAndTheCall() {
    UpstreamException failure =
        UpstreamException.of(CALL, "answered 503").inStep("list").inMapping("pulls");
    assertThat(failure)
        .hasMessage("mapping 'pulls': list GET https://api.example.com/items?page=2: answered 503");
    assertThat(failure.step()).isEqualTo("list");
  }

  @Test
  void aFieldIsNamedAfterItsStep() {
    assertThat(
            UpstreamException.at("enrich.meta", "url", UpstreamException.Kind.INPUT, "bad")
                .inMapping("m")
                .inStep("other"))
        .hasMessage("enrich.meta.url: bad");
    assertThat(
            UpstreamException.at(
                    "enrich.meta", null, UpstreamException.Kind.DEADLINE, "the deadline ran out")
                .inMapping("m"))
        .hasMessage("mapping 'm': enrich.meta: the deadline ran out");
  }

  @Test
  void onlyACallsFailureTakesTheStepThatMadeTheCall() {
    UpstreamException expression =
        UpstreamException.expression("parameters.x 'a.b' failed on row 0: boom", null);
    assertThat(expression.inStep("list").inMapping("m"))
        .hasMessage("mapping 'm': parameters.x 'a.b' failed on row 0: boom");
    assertThat(UpstreamException.input("input 'x' is required").inMapping("m"))
        .hasMessage("input 'x' is required");
  }

  @Test
  void theCauseIsKeptForTheLogThroughEveryRenaming() {
    IllegalStateException cause = new IllegalStateException("detail for the log");
    UpstreamException failure =
        UpstreamException.of(CALL, "failed")
            .causedBy(cause)
            .inStep("list")
            .inMapping("m")
            .adding(" after 3 attempts")
            .scrubbed(text -> text.replace("items", "***"));
    assertThat(failure.getCause()).isSameAs(cause);
    assertThat(failure)
        .hasMessage(
            "mapping 'm': list GET https://api.example.com/***?page=2: failed after 3 attempts");
  }

  @Test
  void oneHelperUnwrapsAFailedTask() {
    UpstreamException ours = UpstreamException.guard("refused");
    assertThat(UpstreamException.unwrap(new ExecutionException(ours))).isSameAs(ours);
    IllegalArgumentException bug = new IllegalArgumentException("bug");
    assertThatThrownBy(() -> UpstreamException.unwrap(new ExecutionException(bug))).isSameAs(bug);
    assertThat(UpstreamException.unwrap(new ExecutionException(new java.io.IOException("x"))))
        .hasMessage("failed: IOException")
        .hasCauseInstanceOf(java.io.IOException.class);
  }
}
