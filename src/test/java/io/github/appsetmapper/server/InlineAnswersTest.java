package io.github.appsetmapper.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.runtime.AppRuntime;
import io.github.appsetmapper.upstream.HttpUpstream;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.PathTemplateMatch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A mapping without upstream calls is answered on the IO thread that read the request, unless its
 * body is large: the work grows with the input (an echoed megabyte held the IO thread, and the
 * /healthz probes behind it, for most of a second: an outside tester's find).
 */
class InlineAnswersTest {
  @Test
  void aStaticMappingIsAnsweredInlineOnlyForASmallBody(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("hello.yaml");
    Files.writeString(file, "name: hello\nparameters:\n  greeting: \"'hi'\"\n");
    try (AppRuntime runtime =
        AppRuntime.builder()
            .environment(n -> null)
            .transport(new HttpUpstream(2, 1 << 20))
            .build()) {
      MappingRegistry registry = MappingRegistry.of(runtime.load(List.of(file)).mappings(), null);
      HttpServerExchange exchange = new HttpServerExchange(null);
      exchange.putAttachment(
          PathTemplateMatch.ATTACHMENT_KEY,
          new PathTemplateMatch(
              "/mappings/{name}/api/v1/getparams.execute", Map.of("name", "hello")));
      exchange.putAttachment(Exchanges.BODY, new byte[GetParamsHandler.INLINE_BODY_BYTES]);
      assertThat(GetParamsHandler.answersInline(registry, exchange)).isTrue();
      exchange.putAttachment(Exchanges.BODY, new byte[GetParamsHandler.INLINE_BODY_BYTES + 1]);
      assertThat(GetParamsHandler.answersInline(registry, exchange)).isFalse();
    }
  }
}
