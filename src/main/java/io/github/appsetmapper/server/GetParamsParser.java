package io.github.appsetmapper.server;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.appsetmapper.engine.Invocation;
import java.util.Map;

/**
 * Reads {@code {"applicationSetName":"...","input":{"parameters":{...}}}} strictly enough that a
 * wrong shape is a 400 naming the field, and leniently about what Argo CD may omit ({@code
 * parameters} when empty) or add (unknown top-level fields are ignored).
 */
final class GetParamsParser {
  private static final ObjectMapper MAPPER =
      new ObjectMapper()
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  private GetParamsParser() {}

  @SuppressWarnings("unchecked")
  static Invocation parse(byte[] body) throws HttpError {
    if (body.length == 0) {
      throw new HttpError(
          400,
          "the request body is empty; send {\"applicationSetName\":...,\"input\":{\"parameters\":{...}}}");
    }
    JsonNode root;
    try {
      root = MAPPER.readTree(body);
    } catch (JsonProcessingException e) {
      throw new HttpError(400, "the request body is not valid JSON: " + e.getOriginalMessage());
    } catch (java.io.IOException e) {
      throw new HttpError(400, "the request body could not be read");
    }
    if (root == null || !root.isObject()) {
      throw new HttpError(400, "the request body must be a JSON object");
    }
    JsonNode name = root.get("applicationSetName");
    if (name != null && !name.isNull() && !name.isTextual()) {
      throw new HttpError(400, "applicationSetName must be a string");
    }
    String applicationSetName = name == null || name.isNull() ? "" : name.asText();
    if (!KubernetesNames.isNameOrEmpty(applicationSetName)) {
      // Never echoed: it may be a megabyte long or hold a line break.
      throw new HttpError(
          400,
          "applicationSetName must be a Kubernetes name: at most "
              + KubernetesNames.MAX_LENGTH
              + " lowercase letters, digits, '-' and '.', starting and ending with a letter or"
              + " digit",
          "bad_application_set_name");
    }
    JsonNode input = root.get("input");
    Map<String, Object> parameters = Map.of();
    if (input != null && !input.isNull()) {
      if (!input.isObject()) {
        throw new HttpError(400, "input must be an object");
      }
      JsonNode params = input.get("parameters");
      if (params != null && !params.isNull()) {
        if (!params.isObject()) {
          throw new HttpError(400, "input.parameters must be an object, not " + kind(params));
        }
        parameters = MAPPER.convertValue(params, Map.class);
      }
    }
    return new Invocation(applicationSetName, parameters);
  }

  private static String kind(JsonNode node) {
    return switch (node.getNodeType()) {
      case ARRAY -> "a list";
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      default -> node.getNodeType().toString().toLowerCase();
    };
  }
}
