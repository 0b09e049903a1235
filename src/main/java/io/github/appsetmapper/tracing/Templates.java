package io.github.appsetmapper.tracing;

import io.github.appsetmapper.compile.CompiledEnrich;
import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.compile.CompiledRequest;
import java.util.HashMap;
import java.util.Map;

/**
 * Each step's URL template as the mapping writes it ({@code https://api/orgs/#{input.org}/repos}):
 * what a client span shows in place of the rendered URL, whose values came from the caller.
 */
final class Templates {
  private Templates() {}

  static Map<String, String> of(CompiledMapping mapping) {
    Map<String, String> templates = new HashMap<>();
    if (mapping == null) {
      return templates;
    }
    if (mapping.list() != null) {
      add(templates, mapping.list().request());
    }
    for (CompiledEnrich step : mapping.enrich()) {
      add(templates, step.request());
    }
    return Map.copyOf(templates);
  }

  private static void add(Map<String, String> templates, CompiledRequest request) {
    if (request != null
        && request.step() != null
        && request.url() != null
        && request.url().template() != null
        && request.url().template().source() != null) {
      templates.put(request.step(), request.url().template().source().text());
    }
  }
}
