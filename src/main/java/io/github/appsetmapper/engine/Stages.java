package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledEnrich;
import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.expr.EvaluationBudget;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.upstream.call.RequestFailure;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The stages of one getparams, in order, for {@link Engine}. */
final class Stages {
  private Stages() {}

  /**
   * The stages, in order: input, list, explode, the lets and label of each row, each enrich (the
   * parts of the filter that read none of its results or a later one's before it, the lets that
   * read its result after it), filter, sortBy/distinctBy/limit, parameters, the guards. Each takes
   * the rows the one before gave.
   */
  static List<Map<String, Object>> run(Execution run, Invocation invocation, DropGuard guard)
      throws RequestFailure {
    CompiledMapping mapping = run.mapping();
    Map<String, Object> input = InputValidator.validate(mapping, invocation.parameters());
    // The input's key (a SHA-256 of its sorted JSON) only where it is used: cache tags for a
    // mapping that makes calls, the maxDrop baseline.
    boolean calls = Engine.makesCalls(mapping);
    String inputKey = calls || mapping.maxDrop() != null ? InputKeys.of(input) : null;
    if (calls) {
      run.fetcher().owners(Set.of(Engine.mappingTag(mapping), Engine.inputTag(mapping, inputKey)));
    }
    Scope base = Scopes.base(input, invocation.applicationSetName(), mapping.vars());
    List<Row> rows = ListStage.rows(run, base);
    run.trace().stage("list", rows.size());
    // Labelled by the item first, so that explode and the lets name the rows they fail on.
    rows = RowLabels.labelled(mapping, rows, base, run.redactor());
    rows = ExplodeStage.run(run, rows, base);
    rows = LetStage.after(0, run, rows, base);
    if (RowLabels.readsRowSteps(mapping)) {
      rows = RowLabels.labelled(mapping, rows, base, run.redactor());
    }
    EnrichStage enrich = new EnrichStage(run, base);
    FilterStage filter = new FilterStage(mapping, base, run.trace(), run.redactor());
    for (int i = 0; i < mapping.enrich().size(); i++) {
      CompiledEnrich step = mapping.enrich().get(i);
      // What of the filter can run now does, so that this step makes no call for what it drops.
      rows = filter.beforeEnrich(i, rows);
      rows = enrich.run(step, rows, base);
      run.trace().stage("enrich." + step.name(), rows.size());
      rows = LetStage.after(i + 1, run, rows, base);
    }
    rows = filter.afterEnrich(rows);
    rows = RowOrdering.apply(run, rows, base);
    List<Map<String, Object>> answer = Parameters.answer(run, rows, base);
    // A run cut short by its slice goes no further: a guard would count a refusal it never made.
    EvaluationBudget.checkSlice();
    try {
      AnswerGuards.check(
          mapping,
          guard,
          inputKey,
          invocation.applicationSetName(),
          answer.size(),
          run.books().deadline());
    } catch (RequestFailure e) {
      AnswerGuards.refusedBy(run.trace(), mapping, answer.size(), e);
      throw e;
    }
    return answer;
  }
}
