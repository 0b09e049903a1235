package io.github.appsetmapper.compile;

import io.github.appsetmapper.upstream.call.HostPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The hosts a mapping names itself, known when it loads: the host of each request URL whose scheme
 * and host are literal text or {@code #{vars.NAME}}, and each exact name in its {@code
 * allowedHosts}. Metrics label upstream calls with these hosts only; any other host (one a next
 * link, a redirect or upstream data names) is "other", so that an upstream cannot grow the number
 * of time series.
 */
final class MetricHosts {
  private static final Pattern VAR = Pattern.compile("vars\\.([A-Za-z_][A-Za-z0-9_]*)");
  private static final Pattern ORIGIN =
      Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?(\\[[^\\]]*\\]|[^/?#:]*)");

  private MetricHosts() {}

  static Set<String> of(
      Map<String, String> vars, CompiledList list, List<CompiledEnrich> enrich, HostPolicy hosts) {
    Set<String> out = new TreeSet<>();
    List<CompiledRequest> requests = new ArrayList<>();
    if (list != null) {
      requests.add(list.request());
    }
    if (enrich != null) {
      enrich.stream().filter(java.util.Objects::nonNull).forEach(e -> requests.add(e.request()));
    }
    for (CompiledRequest request : requests) {
      // Parts of a mapping that failed to compile are null: its problems are reported elsewhere.
      if (request == null || request.url() == null || request.url().template() == null) {
        continue;
      }
      String host = host(request.url().template(), vars);
      if (host != null) {
        out.add(host);
      }
    }
    if (hosts != null) {
      for (String pattern : hosts.patterns()) {
        if (pattern != null && !pattern.contains("*")) {
          out.add(pattern.toLowerCase(Locale.ROOT));
        }
      }
    }
    return Set.copyOf(out);
  }

  /** The host of {@code url} when its text up to the host is known at load, else null. */
  private static String host(Template url, Map<String, String> vars) {
    StringBuilder known = new StringBuilder();
    for (Template.Part part : url.parts()) {
      if (part instanceof Template.Literal literal) {
        known.append(literal.text());
      } else {
        Matcher var =
            VAR.matcher(
                ((Template.Hole) part).expression().expression().getExpressionString().strip());
        String value = var.matches() && vars != null ? vars.get(var.group(1)) : null;
        if (value == null) {
          break; // what follows depends on the request
        }
        known.append(value);
      }
    }
    Matcher origin = ORIGIN.matcher(known);
    if (!origin.find() || origin.end() == known.length() && !isWhole(url, vars)) {
      return null; // the host may go on in a part only known at run time
    }
    String host = origin.group(1).toLowerCase(Locale.ROOT);
    return host.isEmpty() ? null : host;
  }

  private static boolean isWhole(Template url, Map<String, String> vars) {
    for (Template.Part part : url.parts()) {
      if (part instanceof Template.Hole hole) {
        Matcher var = VAR.matcher(hole.expression().expression().getExpressionString().strip());
        if (!var.matches() || vars == null || !vars.containsKey(var.group(1))) {
          return false;
        }
      }
    }
    return true;
  }
}
