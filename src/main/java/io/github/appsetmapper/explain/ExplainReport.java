package io.github.appsetmapper.explain;

import java.util.List;
import java.util.Map;

/**
 * Why a mapping answered what it answered, for one getparams call: every upstream call, the rows
 * after each stage and why rows dropped, each answered row's parameters, and the answer getparams
 * would have given. Holds no secret: URLs, headers and messages are redacted when it is built.
 *
 * <p>It is never a getparams answer: it has no {@code output} key, and the would-be answer sits
 * under {@code answer}, whose {@code status} is what getparams would have answered.
 */
public record ExplainReport(
    String mapping,
    String applicationSetName,
    Map<String, Object> input,
    List<Call> calls,
    List<Stage> stages,
    List<RowParameters> rows,
    Answer answer,
    long callsOmitted,
    long rowsOmitted) {

  public ExplainReport {
    calls = List.copyOf(calls);
    stages = List.copyOf(stages);
    rows = List.copyOf(rows);
  }

  /** A report that left nothing out. */
  public ExplainReport(
      String mapping,
      String applicationSetName,
      Map<String, Object> input,
      List<Call> calls,
      List<Stage> stages,
      List<RowParameters> rows,
      Answer answer) {
    this(mapping, applicationSetName, input, calls, stages, rows, answer, 0, 0);
  }

  /**
   * One upstream call: {@code status} is null when it failed with {@code error}; {@code shared}
   * when no upstream call was made for it: an identical call of the same getparams, or of another
   * getparams in flight, answered it, or the cache did. {@code cache} says which, when it was not a
   * plain call: {@code hit}, {@code miss}, {@code revalidated} (a 304), {@code stale: <why>} (the
   * last good answer standing in for a failing upstream), {@code coalesced}; else null.
   */
  public record Call(
      String step,
      int page,
      String method,
      String url,
      Map<String, String> headers,
      Integer status,
      String error,
      double startedMillis,
      double durationMillis,
      boolean shared,
      String cache) {

    public Call(
        String step,
        int page,
        String method,
        String url,
        Map<String, String> headers,
        Integer status,
        String error,
        double startedMillis,
        double durationMillis,
        boolean shared) {
      this(
          step,
          page,
          method,
          url,
          headers,
          status,
          error,
          startedMillis,
          durationMillis,
          shared,
          null);
    }
  }

  /**
   * The rows after a stage ({@code null} when it did not finish), the first rows it dropped, and
   * how many more it dropped for each reason ({@code more}: counted, not listed).
   */
  public record Stage(String name, Integer rows, List<Drop> dropped, List<MoreDrops> more) {
    public Stage {
      dropped = List.copyOf(dropped);
      more = List.copyOf(more);
    }

    public Stage(String name, Integer rows, List<Drop> dropped) {
      this(name, rows, dropped, List.of());
    }
  }

  /**
   * Rows dropped past those listed, by reason ({@code null}: by reasons past those counted one by
   * one).
   */
  public record MoreDrops(String reason, long rows) {}

  /**
   * A row (its index in the list) that a stage dropped, what a person knows it by ({@code label}:
   * its name, id or first parameter; null when it has none), and why.
   */
  public record Drop(int row, String label, String reason) {}

  /** The parameters of one answered row. */
  /**
   * One answered row's parameters: {@code row} its source row, {@code element} which element of
   * that row's exploded list it is ({@code [1]}; empty when not exploded), so that every row shown
   * is distinct and traceable.
   */
  public record RowParameters(int row, String element, Map<String, Object> parameters) {}

  /**
   * What getparams would have answered: the status and the exact body ({@code {"output":...}} or
   * {@code {"error":...}}).
   */
  public record Answer(int status, Map<String, Object> body) {
    public static Answer parameters(List<Map<String, Object>> parameters) {
      return new Answer(200, Map.of("output", Map.of("parameters", parameters)));
    }

    public static Answer error(int status, String message) {
      return new Answer(status, Map.of("error", message));
    }

    public boolean ok() {
      return status >= 200 && status < 300;
    }
  }
}
