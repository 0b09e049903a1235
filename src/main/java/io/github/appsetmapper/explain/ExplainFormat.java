package io.github.appsetmapper.explain;

import io.github.appsetmapper.expr.EvaluationBudget;
import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.json.Utf8;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a report is written: {@code text} for a terminal, {@code json} for tools. Every value is
 * written as a step of the evaluation's budget on this thread: within the getparams' deadline for
 * the server's report ({@link Explainer#rendered}), unbounded for a command's output.
 */
public enum ExplainFormat {
  TEXT,
  JSON;

  public String render(ExplainReport report) {
    return this == TEXT
        ? ExplainText.render(report)
        : Utf8.shownInJson(JsonCodec.writePretty(toJson(report), EvaluationBudget.pace()));
  }

  /**
   * As {@link #render(ExplainReport)}, naming the trace the run was recorded in ({@code traceId}
   * key, or a last {@code trace_id} line); null: not traced.
   */
  public String render(ExplainReport report, String traceId) {
    if (traceId == null) {
      return render(report);
    }
    if (this == TEXT) {
      return ExplainText.render(report) + "trace_id " + traceId + "\n";
    }
    Map<String, Object> out = new LinkedHashMap<>();
    toJson(report)
        .forEach(
            (key, value) -> {
              out.put(key, value);
              if (key.equals("explain")) {
                out.put("traceId", traceId);
              }
            });
    return Utf8.shownInJson(JsonCodec.writePretty(out, EvaluationBudget.pace()));
  }

  /**
   * {@link #render(ExplainReport, String)} as the bytes sent, UTF-8: every value written a step of
   * the evaluation's budget on this thread (within {@link Explainer#rendered}, the getparams'
   * deadline), and the deadline checked once more when the last byte is made.
   */
  public byte[] bytes(ExplainReport report, String traceId) {
    byte[] bytes = render(report, traceId).getBytes(StandardCharsets.UTF_8);
    EvaluationBudget.check();
    return bytes;
  }

  public String contentType() {
    return this == TEXT ? "text/plain; charset=utf-8" : "application/json";
  }

  @Override
  public String toString() {
    return name().toLowerCase();
  }

  /** Compact JSON, each value a step of the evaluation's budget on this thread (if any). */
  static String compact(Object value) {
    return JsonCodec.write(value, EvaluationBudget.pace());
  }

  /**
   * The JSON form, field by field: {@code explain} names the mapping first, so that the document
   * says what it is; there is no {@code output} key, so it can never read as a getparams answer.
   */
  static Map<String, Object> toJson(ExplainReport report) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("explain", report.mapping());
    out.put("applicationSetName", report.applicationSetName());
    out.put("input", report.input());
    List<Object> calls = new ArrayList<>();
    for (ExplainReport.Call call : report.calls()) {
      Map<String, Object> c = new LinkedHashMap<>();
      c.put("step", call.step());
      c.put("page", call.page());
      c.put("method", call.method());
      c.put("url", call.url());
      c.put("headers", call.headers());
      c.put("status", call.status());
      c.put("error", call.error());
      c.put("startedMillis", call.startedMillis());
      c.put("durationMillis", call.durationMillis());
      c.put("shared", call.shared());
      if (call.cache() != null) {
        c.put("cache", call.cache());
      }
      calls.add(c);
    }
    out.put("calls", calls);
    if (report.callsOmitted() > 0) {
      out.put("callsOmitted", report.callsOmitted());
    }
    List<Object> stages = new ArrayList<>();
    for (ExplainReport.Stage stage : report.stages()) {
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("stage", stage.name());
      s.put("rows", stage.rows());
      List<Object> dropped = new ArrayList<>();
      for (ExplainReport.Drop drop : stage.dropped()) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("row", drop.row());
        if (drop.label() != null) {
          d.put("label", drop.label());
        }
        d.put("reason", drop.reason());
        dropped.add(d);
      }
      s.put("dropped", dropped);
      if (!stage.more().isEmpty()) {
        List<Object> more = new ArrayList<>();
        for (ExplainReport.MoreDrops m : stage.more()) {
          Map<String, Object> one = new LinkedHashMap<>();
          one.put("reason", m.reason());
          one.put("rows", m.rows());
          more.add(one);
        }
        s.put("moreDropped", more);
      }
      stages.add(s);
    }
    out.put("stages", stages);
    List<Object> rows = new ArrayList<>();
    for (ExplainReport.RowParameters row : report.rows()) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("row", row.row());
      if (!row.element().isEmpty()) {
        r.put("element", row.element());
      }
      r.put("parameters", row.parameters());
      rows.add(r);
    }
    out.put("rows", rows);
    if (report.rowsOmitted() > 0) {
      out.put("rowsOmitted", report.rowsOmitted());
    }
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("status", report.answer().status());
    answer.put("body", report.answer().body());
    out.put("answer", answer);
    return out;
  }
}
