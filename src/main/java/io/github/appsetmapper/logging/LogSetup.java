package io.github.appsetmapper.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.util.Map;

/**
 * The log set-up, in code (found by Logback through {@code META-INF/services}): one line per event
 * on stdout in the {@link TextLayout} format, written by a background thread. Configuring from
 * {@code logback.xml} loaded Joran and an XML parser, about 600 classes before the first answer;
 * this loads none of them. {@code -Dlogback.configurationFile} (and a test's {@code
 * logback-test.xml}) still win: then Logback's own XML configuration runs instead.
 */
public final class LogSetup extends ContextAwareBase implements Configurator {
  /**
   * Libraries that say too much at INFO. Lettuce says every reconnection attempt;
   * appset_mapper.redis says Redis went and came back, once each.
   */
  static final Map<String, Level> QUIET =
      Map.of(
          "org.xnio", Level.WARN,
          "io.undertow", Level.WARN,
          "org.jboss", Level.WARN,
          "org.apache.hc", Level.WARN,
          "io.lettuce", Level.ERROR,
          "io.netty", Level.WARN,
          "reactor", Level.WARN);

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (System.getProperty("logback.configurationFile") != null
        || LogSetup.class.getClassLoader().getResource("logback-test.xml") != null) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    inCode(context);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  /**
   * What {@code logback.xml} said: the text format, in the background, libraries quieted. The
   * layout, the console and the writer thread are made on the first event ({@link OnFirstEvent}).
   */
  static void inCode(LoggerContext context) {
    QUIET.forEach((name, level) -> context.getLogger(name).setLevel(level));
    ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.INFO);
    OnFirstEvent appender =
        new OnFirstEvent(
            context, "ASYNC", () -> inBackground(context, "ASYNC", textEncoder(context)));
    appender.start();
    root.addAppender(appender);
  }

  private static Encoder<ILoggingEvent> textEncoder(LoggerContext context) {
    TextEncoder encoder = new TextEncoder();
    encoder.setContext(context);
    encoder.start();
    return encoder;
  }

  /**
   * Lines of {@code encoder} written to stdout by a background thread ({@link BackgroundWriter}): a
   * synchronous console write per getparams cost a third of the throughput (bench/). Lines wait,
   * never drop; stopping the context (the shutdown hook) writes them.
   */
  public static BackgroundWriter inBackground(
      LoggerContext context, String name, Encoder<ILoggingEvent> encoder) {
    BackgroundWriter writer = new BackgroundWriter(encoder);
    writer.setContext(context);
    writer.setName(name);
    writer.start();
    return writer;
  }
}
