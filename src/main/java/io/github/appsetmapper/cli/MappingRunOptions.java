package io.github.appsetmapper.cli;

import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.json.JsonRefusal;
import io.github.appsetmapper.upstream.HttpUpstream;
import io.github.appsetmapper.upstream.UpstreamOptions;
import io.github.appsetmapper.upstream.net.ProxySettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * What {@code run} and {@code record} both take (a picocli mixin): the mapping file, which mapping
 * in it, the input and the {@code --var}s; and how both read them.
 */
final class MappingRunOptions {
  @Parameters(index = "0", paramLabel = "FILE", description = "The mapping file.")
  Path file;

  @Option(
      names = "--mapping",
      paramLabel = "NAME",
      description = "Which mapping, when the file holds several.")
  String mappingName;

  @Option(
      names = "--input",
      paramLabel = "KEY=VALUE",
      description = "An input parameter, as a string (repeatable).")
  Map<String, String> inputs = new LinkedHashMap<>();

  @Option(
      names = "--input-json",
      paramLabel = "JSON",
      description = "Input parameters as a JSON object (typed values).")
  String inputJson;

  @Option(names = "--var", paramLabel = VarOption.LABEL, description = VarOption.DESCRIPTION)
  Map<String, String> vars = Map.of();

  /** The input: {@code --input-json}'s object, then each {@code --input}; null (said on err). */
  @SuppressWarnings("unchecked")
  Map<String, Object> input(PrintWriter err) {
    Map<String, Object> parameters = new LinkedHashMap<>();
    if (inputJson != null) {
      Object read;
      try {
        read = JsonCodec.read(inputJson);
      } catch (JsonRefusal e) {
        err.println("error: --input-json " + e.located());
        return null;
      }
      if (!(read instanceof Map<?, ?> typed)) {
        err.println("error: --input-json must be a JSON object");
        return null;
      }
      parameters.putAll((Map<String, Object>) typed);
    }
    parameters.putAll(inputs);
    return parameters;
  }

  /** The mapping {@code --mapping} names, or the file's only one; null (said on err). */
  CompiledMapping pick(List<CompiledMapping> mappings, PrintWriter err) {
    CompiledMapping picked =
        mappingName != null
            ? mappings.stream().filter(m -> m.name().equals(mappingName)).findFirst().orElse(null)
            : mappings.size() == 1 ? mappings.get(0) : null;
    if (picked == null) {
      err.println(
          "error: "
              + (mappingName == null
                  ? file + " holds several mappings; name one with --mapping"
                  : file + " holds no mapping '" + mappingName + "'")
              + " (it holds: "
              + String.join(", ", mappings.stream().map(CompiledMapping::name).toList())
              + ")");
    }
    return picked;
  }

  /** HTTP with the defaults, and proxies from the environment. */
  static UpstreamOptions httpOptions() throws IOException {
    try {
      return UpstreamOptions.defaults(16, HttpUpstream.DEFAULT_MAX_BODY_BYTES)
          .withProxies(ProxySettings.fromEnvironment(System::getenv));
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage());
    }
  }
}
