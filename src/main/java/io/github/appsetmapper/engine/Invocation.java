package io.github.appsetmapper.engine;

import java.util.Map;

/** One getparams call as the engine sees it: who asked, and the raw input parameters. */
public record Invocation(String applicationSetName, Map<String, Object> parameters) {
  public Invocation {
    parameters = parameters == null ? Map.of() : parameters;
    applicationSetName = applicationSetName == null ? "" : applicationSetName;
  }
}
