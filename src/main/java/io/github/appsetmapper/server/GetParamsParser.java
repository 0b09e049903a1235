package io.github.appsetmapper.server;

import io.github.appsetmapper.engine.Invocation;
import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.json.JsonRefusal;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Reads {@code {"applicationSetName":"...","input":{"parameters":{...}}}} strictly enough that a
 * wrong shape is a 400 naming the field, and leniently about what Argo CD may omit ({@code
 * parameters} when empty) or add (unknown top-level fields are ignored). The body is read by the
 * one {@link JsonCodec}: a key twice in one object, or a number beyond the bounds, is a 400 before
 * anything converts it.
 */
final class GetParamsParser {
  private GetParamsParser() {}

  @SuppressWarnings("unchecked")
  static Invocation parse(byte[] body) throws HttpError {
    if (body.length == 0) {
      throw new HttpError(
          400,
          "the request body is empty; send {\"applicationSetName\":...,\"input\":{\"parameters\":{...}}}");
    }
    Object root;
    try {
      root = JsonCodec.read(body);
    } catch (JsonRefusal e) {
      throw new HttpError(400, "the request body " + e.located());
    }
    if (!(root instanceof Map<?, ?> top)) {
      throw new HttpError(400, "the request body must be a JSON object");
    }
    Object name = top.get("applicationSetName");
    if (name != null && !(name instanceof String)) {
      throw new HttpError(400, "applicationSetName must be a string");
    }
    String applicationSetName = name == null ? "" : (String) name;
    if (!KubernetesNames.isNameOrEmpty(applicationSetName)) {
      // Never echoed: it may be a megabyte long or hold a line break.
      throw new HttpError(
          400, "applicationSetName must be " + KubernetesNames.RULE, "bad_application_set_name");
    }
    Object input = top.get("input");
    Map<String, Object> parameters = Map.of();
    if (input != null) {
      if (!(input instanceof Map<?, ?> inputMap)) {
        throw new HttpError(400, "input must be an object");
      }
      Object params = inputMap.get("parameters");
      if (params != null) {
        if (!(params instanceof Map)) {
          throw new HttpError(400, "input.parameters must be an object, not " + kind(params));
        }
        parameters = Collections.unmodifiableMap((Map<String, Object>) params);
      }
    }
    return new Invocation(applicationSetName, parameters);
  }

  private static String kind(Object value) {
    if (value instanceof List) {
      return "a list";
    }
    if (value instanceof String) {
      return "a string";
    }
    if (value instanceof Number) {
      return "a number";
    }
    if (value instanceof Boolean) {
      return "a boolean";
    }
    return "an object";
  }
}
