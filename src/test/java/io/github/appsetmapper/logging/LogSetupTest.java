package io.github.appsetmapper.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The log set-up in code says what logback.xml said: format, escaping, levels, a background writer
 * that loses nothing. (StartupClassesTest: the jar's classpath loads neither Joran nor an XML
 * parser.)
 */
class LogSetupTest {
  private static final String LINE =
      "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}(Z|[+-]\\d\\d:\\d\\d) ";

  @Test
  void linesAreTheTextFormatEscapedAndWrittenInTheBackground() throws Exception {
    LoggerContext context = new LoggerContext();
    PrintStream stdout = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
      context.setMDCAdapter(new LogbackMDCAdapter()); // as Logback's service provider does
      LogSetup.inCode(context);
      context.getLogger("appset_mapper.getparams").info("mapping={} forged\nline", "hello");
      for (int i = 0; i < 2000; i++) {
        context.getLogger("appset_mapper.load").info("n={}", i);
      }
      context.getLogger("io.undertow.request").info("chatty");
      context.getLogger("io.undertow.request").warn("worth saying");
      context.getLogger("io.lettuce.core.protocol").warn("reconnecting");
      // The writer thread catches up (a condition with a generous deadline, not a sleep).
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
      while (captured.toString(StandardCharsets.UTF_8).lines().count() < 2002
          && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
    } finally {
      context.stop();
      System.setOut(stdout);
    }
    List<String> lines = captured.toString(StandardCharsets.UTF_8).lines().toList();
    assertThat(lines.get(0))
        .matches(LINE + "INFO  getparams mapping=hello forged\\\\nline")
        .doesNotContain("\n");
    assertThat(lines).hasSize(1 + 2000 + 1);
    assertThat(lines.get(2000)).matches(LINE + "INFO  load n=1999");
    assertThat(lines.get(2001)).matches(LINE + "WARN  request worth saying");
  }
}
