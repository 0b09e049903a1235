package io.github.appsetmapper.diff;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * A report as plain maps and lists (the JSON output, and the shadow endpoint's entries), every
 * string redacted. At most {@code maxRows} rows of each kind are listed per input; the counts are
 * always whole.
 */
public final class DiffPlain {
  private DiffPlain() {}

  public static Map<String, Object> report(
      DiffReport report, UnaryOperator<String> redact, int maxRows) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("before", redact.apply(report.before()));
    out.put("after", redact.apply(report.after()));
    out.put("changed", report.changed());
    Map<String, Object> counts = new LinkedHashMap<>();
    counts.put("mappings", report.mappings().size());
    counts.put("inputs", report.inputs());
    counts.put("added", report.added());
    counts.put("removed", report.removed());
    counts.put("changed", report.changedRows());
    counts.put("errorChanges", report.errorChanges());
    counts.put("errors", report.errors());
    out.put("counts", counts);
    List<Object> mappings = new ArrayList<>();
    for (MappingDiff m : report.mappings()) {
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("name", m.name());
      if (m.previousName() != null) {
        one.put("previousName", m.previousName());
      }
      one.put("presence", m.presence().toString());
      one.put("changed", m.changed());
      one.put("key", m.key());
      if (m.note() != null) {
        one.put("note", redact.apply(m.note()));
      }
      List<Object> inputs = new ArrayList<>();
      m.inputs().forEach(i -> inputs.add(input(i, redact, maxRows)));
      one.put("inputs", inputs);
      mappings.add(one);
    }
    out.put("mappings", mappings);
    return out;
  }

  /** One input: the input, both outcomes, the rows added, removed and changed, with counts. */
  public static Map<String, Object> input(InputDiff i, UnaryOperator<String> redact, int maxRows) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("label", i.label(redact));
    out.put("applicationSetName", redact.apply(i.applicationSetName()));
    out.put("input", Redacted.deep(i.input(), redact));
    out.put("changed", i.changed());
    if (i.error()) {
      out.put("error", true);
    }
    out.put("before", outcome(i.before(), redact));
    out.put("after", outcome(i.after(), redact));
    if (i.rows() != null) {
      RowDiff rows = i.rows();
      Map<String, Object> counts = new LinkedHashMap<>();
      counts.put("added", rows.added().size());
      counts.put("removed", rows.removed().size());
      counts.put("changed", rows.changed().size());
      out.put("counts", counts);
      out.put("added", rows(rows.added(), redact, maxRows));
      out.put("removed", rows(rows.removed(), redact, maxRows));
      List<Object> changed = new ArrayList<>();
      for (RowDiff.ChangedRow row :
          rows.changed().subList(0, Math.min(maxRows, rows.changed().size()))) {
        Map<String, Object> one = new LinkedHashMap<>();
        one.put("key", Redacted.deep(row.key(), redact));
        List<Object> parameters = new ArrayList<>();
        for (RowDiff.ParameterChange p : row.parameters()) {
          Map<String, Object> change = new LinkedHashMap<>();
          change.put("name", redact.apply(p.name()));
          if (p.hadBefore()) {
            change.put("before", Redacted.deep(p.before(), redact));
          }
          if (p.hasAfter()) {
            change.put("after", Redacted.deep(p.after(), redact));
          }
          parameters.add(change);
        }
        one.put("parameters", parameters);
        changed.add(one);
      }
      out.put("changedRows", changed);
      if (!rows.keyed()) {
        out.put("note", "no key: a changed row shows as one removed and one added");
      }
    }
    return out;
  }

  private static Map<String, Object> outcome(Outcome o, UnaryOperator<String> redact) {
    Map<String, Object> out = new LinkedHashMap<>();
    if (o.failed()) {
      out.put("status", o.status());
      out.put("error", redact.apply(o.error()));
    } else {
      out.put("rows", o.rows().size());
    }
    return out;
  }

  private static List<Object> rows(
      List<Map<String, Object>> rows, UnaryOperator<String> redact, int maxRows) {
    List<Object> out = new ArrayList<>();
    rows.stream().limit(maxRows).forEach(r -> out.add(Redacted.deep(r, redact)));
    return out;
  }
}
