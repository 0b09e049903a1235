package io.github.appsetmapper.bench;

import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.json.YamlCodec;
import io.github.appsetmapper.testing.HelmIndex;
import java.io.ByteArrayInputStream;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.parser.Parser;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.reader.UnicodeReader;

/**
 * Reading a Helm repository index as YAML against the same data as JSON, side by side in one run
 * (bench/yaml): the median time of each codec over several rounds, after a warm-up, and the heap
 * each estimates for the memory budget. Usage: YamlVsJson [MEGABYTES=25] [ROUNDS=7].
 */
public final class YamlVsJson {
  private YamlVsJson() {}

  public static void main(String[] args) throws Exception {
    long megabytes = args.length > 0 ? Long.parseLong(args[0]) : 25;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
    byte[] yaml = HelmIndex.yaml(megabytes * 1000 * 1000);
    byte[] json = JsonCodec.writeBytes(YamlCodec.measure(yaml).document());
    for (int i = 0; i < 4; i++) { // warm-up: the JIT settles after a few passes
      YamlCodec.measure(yaml);
      JsonCodec.measure(json);
      snakeYaml(yaml);
    }
    List<Long> yamlTimes = new ArrayList<>();
    List<Long> jsonTimes = new ArrayList<>();
    List<Long> eventTimes = new ArrayList<>();
    List<Long> snakeTimes = new ArrayList<>();
    long yamlBytes = 0;
    long snakeBytes = 0;
    long jsonBytes = 0;
    for (int i = 0; i < rounds; i++) {
      // Interleaved, so that a busy moment of the machine falls on both.
      long start = System.nanoTime();
      yamlBytes = YamlCodec.measure(yaml).bytes();
      yamlTimes.add(System.nanoTime() - start);
      start = System.nanoTime();
      jsonBytes = JsonCodec.measure(json).bytes();
      jsonTimes.add(System.nanoTime() - start);
      start = System.nanoTime();
      events(yaml);
      eventTimes.add(System.nanoTime() - start);
      start = System.nanoTime();
      snakeBytes = snakeYaml(yaml).bytes();
      snakeTimes.add(System.nanoTime() - start);
    }
    long yamlMedian = median(yamlTimes);
    long jsonMedian = median(jsonTimes);
    System.out.printf("| reader | body | median ms (%d rounds) | heap estimate |%n", rounds);
    System.out.println("|---|---|---|---|");
    System.out.printf(
        "| YAML (YamlCodec: BlockYamlReader, SnakeYAML as fall-back) | %.1f MB | %d | %.1f MB |%n",
        yaml.length / 1e6, yamlMedian / 1_000_000, yamlBytes / 1e6);
    System.out.printf(
        "| JSON (JsonCodec) | %.1f MB | %d | %.1f MB |%n",
        json.length / 1e6, jsonMedian / 1_000_000, jsonBytes / 1e6);
    System.out.printf(
        "| SnakeYAML's parser alone (events, nothing built) | %.1f MB | %d | - |%n",
        yaml.length / 1e6, median(eventTimes) / 1_000_000);
    System.out.printf(
        "| YAML, SnakeYAML's path forced (before BlockYamlReader) | %.1f MB | %d | %.1f MB |%n",
        yaml.length / 1e6, median(snakeTimes) / 1_000_000, snakeBytes / 1e6);
    System.out.printf("%nYAML / JSON time: %.2fx%n", (double) yamlMedian / jsonMedian);
    System.out.printf(
        "YAML with SnakeYAML's path forced / JSON time: %.2fx%n",
        (double) median(snakeTimes) / jsonMedian);
  }

  /** YamlCodec's SnakeYAML path alone (package-private: reached here by reflection, bench only). */
  private static JsonCodec.Measured snakeYaml(byte[] yaml) throws Exception {
    Method method =
        YamlCodec.class.getDeclaredMethod("measureWithSnakeYaml", byte[].class, int.class);
    method.setAccessible(true);
    return (JsonCodec.Measured) method.invoke(null, yaml, YamlCodec.MAX_CODE_POINTS);
  }

  /**
   * The floor under SnakeYAML's path: SnakeYAML's scanner and parser, every event read and dropped.
   */
  private static long events(byte[] yaml) {
    LoaderOptions options = new LoaderOptions();
    options.setCodePointLimit(YamlCodec.MAX_CODE_POINTS);
    Parser parser =
        new ParserImpl(
            new StreamReader(new UnicodeReader(new ByteArrayInputStream(yaml))), options);
    long count = 0;
    while (!parser.getEvent().is(Event.ID.StreamEnd)) {
      count++;
    }
    return count;
  }

  private static long median(List<Long> times) {
    List<Long> sorted = new ArrayList<>(times);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }
}
