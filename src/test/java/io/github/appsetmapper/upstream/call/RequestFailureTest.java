package io.github.appsetmapper.upstream.call;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** The one request-time failure: one line composed in one place, the cause kept beside it. */
class RequestFailureTest {
  private static final UpstreamRequest CALL =
      UpstreamRequest.builder()
          .method("GET")
          .uri(URI.create("https://user:pw@api.example.com/items?page=2"))
          .build();

  @Test
  void aCallsFailureNamesTheMappingTheStepAndTheCall() {
    RequestFailure failure =
        RequestFailure.of(CALL, "answered 503").inStep("list").inMapping("pulls");
    assertThat(failure)
        .hasMessage("mapping 'pulls': list GET https://api.example.com/items?page=2: answered 503");
    assertThat(failure.step()).isEqualTo("list");
  }

  @Test
  void aFieldIsNamedAfterItsStep() {
    assertThat(
            RequestFailure.at("enrich.meta", "url", RequestFailure.Kind.INPUT, "bad")
                .inMapping("m")
                .inStep("other"))
        .hasMessage("enrich.meta.url: bad");
    assertThat(
            RequestFailure.at(
                    "enrich.meta", null, RequestFailure.Kind.DEADLINE, "the deadline ran out")
                .inMapping("m"))
        .hasMessage("mapping 'm': enrich.meta: the deadline ran out");
  }

  @Test
  void onlyACallsFailureTakesTheStepThatMadeTheCall() {
    RequestFailure expression =
        RequestFailure.expression("parameters.x 'a.b' failed on row 0: boom", null);
    assertThat(expression.inStep("list").inMapping("m"))
        .hasMessage("mapping 'm': parameters.x 'a.b' failed on row 0: boom");
    assertThat(RequestFailure.input("input 'x' is required").inMapping("m"))
        .hasMessage("input 'x' is required");
  }

  @Test
  void theCauseIsKeptForTheLogThroughEveryRenaming() {
    IllegalStateException cause = new IllegalStateException("detail for the log");
    RequestFailure failure =
        RequestFailure.of(CALL, "failed")
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
    RequestFailure ours = RequestFailure.guard("refused");
    assertThat(RequestFailure.unwrap(new ExecutionException(ours))).isSameAs(ours);
    IllegalArgumentException bug = new IllegalArgumentException("bug");
    assertThatThrownBy(() -> RequestFailure.unwrap(new ExecutionException(bug))).isSameAs(bug);
    assertThat(RequestFailure.unwrap(new ExecutionException(new java.io.IOException("x"))))
        .hasMessage("failed: IOException")
        .hasCauseInstanceOf(java.io.IOException.class);
  }
}
