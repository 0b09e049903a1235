package io.github.appsetmapper.json;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.ScalarEvent;

/**
 * Plain data straight from SnakeYAML's parser events, without a node tree: one pass, no recursion,
 * the heap estimated as it is built. Every bound of the document is counted here: nesting, the
 * values repeated through aliases (an alias is shared, never copied, but counted as if expanded,
 * merged maps included), aliases that name a collection, duplicate keys, keys that are not scalars,
 * tags. Merge keys ({@code <<}) are merged as Go's yaml v3 (Helm) merges them.
 */
final class YamlBuilder {
  private static final String STR = "tag:yaml.org,2002:str";
  private static final String MAP = "tag:yaml.org,2002:map";
  private static final String SEQ = "tag:yaml.org,2002:seq";

  /** A completed anchor: its value, its scalar text (for a key), and what expanding it costs. */
  private record Anchor(Object value, String text, long values, long bytes, int height) {
    boolean collection() {
      return value instanceof Map || value instanceof List;
    }
  }

  /** One open collection. */
  private static final class Frame {
    final Map<String, Object> map;
    final List<Object> list;
    final String anchor;
    final long valuesAtStart;
    final long bytesAtStart;
    final int depth;
    int height;

    /** The pending key of a map (null: the next scalar is a key), and where it stood. */
    String key;

    Mark keyMark;
    boolean merging;
    List<Map<?, ?>> merges;
    int mergeAt;

    Frame(Map<String, Object> map, List<Object> list, String anchor, YamlBuilder b, int depth) {
      this.map = map;
      this.list = list;
      this.anchor = anchor;
      this.valuesAtStart = b.values;
      this.bytesAtStart = b.bytes;
      this.depth = depth;
    }
  }

  long bytes;
  private final Growth.Steps growth;
  private long values;
  private long repeated;
  private int collectionAliases;
  private final Map<String, Anchor> anchors = new HashMap<>();
  private final Map<String, Frame> open = new HashMap<>();
  private final SharedTexts shared = new SharedTexts();
  private final Deque<Frame> stack = new ArrayDeque<>();
  private Object document;
  private boolean done;

  /** The document, once its last event was given. */
  Object document() {
    return document;
  }

  boolean done() {
    return done;
  }

  /** Tells {@code growth} what the document has taken, every {@link Growth#STEP} bytes. */
  YamlBuilder(Growth growth) {
    this.growth = new Growth.Steps(growth);
  }

  /** Takes one node event (scalar, alias, collection start or end). */
  void accept(Event event) throws JsonRefusal {
    switch (event.getEventId()) {
      case Scalar -> scalar((ScalarEvent) event);
      case Alias -> alias((AliasEvent) event);
      case MappingStart -> start((CollectionStartEvent) event, true);
      case SequenceStart -> start((CollectionStartEvent) event, false);
      case MappingEnd, SequenceEnd -> end();
      default -> {}
    }
    grown();
  }

  private void grown() { // every entry point: both readers report through the same steps
    growth.at(bytes);
  }

  /*
   * The same steps for BlockYamlReader, which has no events, tags, anchors or marks (what holds
   * them is read by SnakeYAML): one builder, so every bound and the heap estimate are counted once.
   */

  /** A block collection starts (a map when {@code isMap}, else a list). */
  void startCollection(boolean isMap) throws JsonRefusal {
    if (expectingKey()) {
      throw notScalarKey(null);
    }
    start(isMap, null);
    grown();
  }

  /** The innermost open collection ends. */
  void endCollection() throws JsonRefusal {
    end();
    grown();
  }

  /** A scalar without tag or anchor: a key, or a value typed by the core schema when plain. */
  void scalar(String text, boolean plain) throws JsonRefusal {
    scalar(text, plain, null, null);
    grown();
  }

  private boolean expectingKey() {
    Frame top = stack.peek();
    return top != null && top.map != null && top.key == null;
  }

  private void start(CollectionStartEvent event, boolean isMap) throws JsonRefusal {
    if (expectingKey()) {
      throw notScalarKey(event.getStartMark());
    }
    String tag = event.getTag();
    if (tag != null && !"!".equals(tag) && !tag.equals(isMap ? MAP : SEQ)) {
      throw YamlCodec.tagRefusal(tag, event.getStartMark());
    }
    start(isMap, event.getAnchor());
  }

  private void start(boolean isMap, String anchor) throws JsonRefusal {
    int depth = stack.size();
    if (depth >= JsonCodec.MAX_DEPTH) {
      throw new JsonRefusal(
          JsonRefusal.Kind.LIMIT, "is nested deeper than " + JsonCodec.MAX_DEPTH + " levels", null);
    }
    values++;
    bytes += JsonCodec.VALUE_BYTES + (isMap ? JsonCodec.OBJECT_BYTES : JsonCodec.LIST_BYTES);
    Frame frame =
        new Frame(
            isMap ? new LinkedHashMap<>() : null,
            isMap ? null : new ArrayList<>(),
            anchor,
            this,
            depth);
    frame.height = 1;
    if (frame.anchor != null) {
      open.put(frame.anchor, frame);
    }
    stack.push(frame);
  }

  private void end() throws JsonRefusal {
    Frame frame = stack.pop();
    Object value;
    if (frame.list != null) {
      ((ArrayList<Object>) frame.list).trimToSize();
      value = frame.list;
    } else {
      value = frame.merges == null ? frame.map : merged(frame);
    }
    if (frame.anchor != null) {
      open.remove(frame.anchor);
      anchors.put(
          frame.anchor,
          new Anchor(
              value, null, values - frame.valuesAtStart, bytes - frame.bytesAtStart, frame.height));
    }
    deliver(value, frame.height, false, null);
  }

  private void scalar(ScalarEvent event) throws JsonRefusal {
    String tag = event.getTag();
    boolean plain = tag == null && event.getScalarStyle() == DumperOptions.ScalarStyle.PLAIN;
    if (tag != null && !"!".equals(tag) && !STR.equals(tag)) {
      throw YamlCodec.tagRefusal(tag, event.getStartMark());
    }
    scalar(event.getValue(), plain, event.getAnchor(), event.getStartMark());
  }

  private void scalar(String text, boolean plain, String anchor, Mark mark) throws JsonRefusal {
    String notText = JsonCodec.halfSurrogate(text);
    if (notText != null) {
      // A double-quoted "\\ud800" reads as half a pair: a '?' in the answer, as JSON refuses it.
      throw new JsonRefusal(JsonRefusal.Kind.TEXT, notText, YamlCodec.where(mark));
    }
    if (expectingKey()) {
      key(text, plain && "<<".equals(text), mark);
      if (anchor != null) {
        anchors.put(anchor, new Anchor(text, text, 1, JsonCodec.VALUE_BYTES, 0));
      }
      return;
    }
    long before = bytes;
    values++;
    bytes += JsonCodec.VALUE_BYTES;
    Object value;
    if (plain) {
      value = YamlCodec.typed(text, mark);
      if (value instanceof String) {
        value = share(text);
      } else if (value instanceof Number && !(value instanceof Integer)) {
        bytes += JsonCodec.BIG_NUMBER_BYTES + text.length();
      }
    } else {
      value = share(text);
    }
    if (anchor != null) {
      anchors.put(anchor, new Anchor(value, text, 1, bytes - before, 0));
    }
    deliver(value, 0, false, mark);
  }

  private void alias(AliasEvent event) throws JsonRefusal {
    String name = event.getAnchor();
    Mark mark = event.getStartMark();
    if (open.containsKey(name)) {
      throw new JsonRefusal(
          JsonRefusal.Kind.LIMIT,
          "is nested deeper than " + JsonCodec.MAX_DEPTH + " levels (an alias inside itself?)",
          YamlCodec.where(mark));
    }
    Anchor anchor = anchors.get(name);
    if (anchor == null) {
      throw new JsonRefusal(
          JsonRefusal.Kind.SYNTAX,
          "is not valid YAML: found undefined alias " + name,
          YamlCodec.where(mark));
    }
    if (anchor.collection() && ++collectionAliases > YamlCodec.MAX_COLLECTION_ALIASES) {
      throw new JsonRefusal(
          JsonRefusal.Kind.LIMIT,
          "names a collection by an alias more than " + YamlCodec.MAX_COLLECTION_ALIASES + " times",
          null);
    }
    if (expectingKey()) {
      if (anchor.text() == null) {
        throw notScalarKey(mark);
      }
      key(anchor.text(), false, mark);
      return;
    }
    repeated += anchor.values();
    if (repeated > YamlCodec.MAX_REPEATED) {
      throw new JsonRefusal(
          JsonRefusal.Kind.LIMIT,
          "repeats more than " + YamlCodec.MAX_REPEATED + " values through aliases",
          YamlCodec.where(mark));
    }
    if (stack.size() + anchor.height() > JsonCodec.MAX_DEPTH) {
      throw new JsonRefusal(
          JsonRefusal.Kind.LIMIT, "is nested deeper than " + JsonCodec.MAX_DEPTH + " levels", null);
    }
    // Shared, not copied; counted as if it were (what is built from it may copy it).
    values += anchor.values();
    bytes += anchor.bytes();
    deliver(anchor.value(), anchor.height(), true, mark);
  }

  private void key(String text, boolean merge, Mark mark) throws JsonRefusal {
    Frame top = stack.peek();
    if (merge) {
      if (top.merges != null) {
        throw twice(text, mark);
      }
      top.merges = new ArrayList<>();
      top.mergeAt = top.map.size();
      top.merging = true;
    } else if (top.map.containsKey(text)) {
      throw twice(text, mark);
    } else {
      bytes += JsonCodec.MEMBER_BYTES;
    }
    top.key = merge ? "<<" : share(text);
    top.keyMark = mark;
  }

  /** Puts a finished value into the collection it belongs to, or makes it the document. */
  private void deliver(Object value, int height, boolean aliased, Mark mark) throws JsonRefusal {
    Frame top = stack.peek();
    if (top == null) {
      document = value;
      done = true;
      return;
    }
    top.height = Math.max(top.height, height + 1);
    if (top.list != null) {
      top.list.add(value);
      return;
    }
    if (top.merging) {
      mergeSource(top, value, aliased);
      top.merging = false;
    } else {
      top.map.put(top.key, value);
    }
    top.key = null;
  }

  /**
   * As Go's yaml v3: the value of {@code <<} is a map (given here or by an alias) or a list of
   * maps; an alias to a list, a text or a list holding anything else is an error.
   */
  private void mergeSource(Frame top, Object value, boolean aliased) throws JsonRefusal {
    if (value instanceof Map<?, ?> map) {
      top.merges.add(map);
      return;
    }
    if (value instanceof List<?> list && !aliased) {
      for (Object element : list) {
        if (!(element instanceof Map<?, ?> map)) {
          throw mergeRefusal(top.keyMark);
        }
        top.merges.add(map);
      }
      return;
    }
    throw mergeRefusal(top.keyMark);
  }

  /**
   * A map with merge keys: its own keys win over merged ones, and of the merged maps the earlier
   * wins; merged keys stand where {@code <<} stood.
   */
  private Map<String, Object> merged(Frame frame) {
    Map<String, Object> out = new LinkedHashMap<>();
    int index = 0;
    for (Map.Entry<String, Object> entry : frame.map.entrySet()) {
      if (index++ == frame.mergeAt) {
        mergeInto(out, frame);
      }
      out.put(entry.getKey(), entry.getValue());
    }
    if (index <= frame.mergeAt) {
      mergeInto(out, frame);
    }
    return out;
  }

  private void mergeInto(Map<String, Object> out, Frame frame) {
    for (Map<?, ?> source : frame.merges) {
      for (Map.Entry<?, ?> entry : source.entrySet()) {
        String key = (String) entry.getKey();
        if (!frame.map.containsKey(key) && !out.containsKey(key)) {
          bytes += JsonCodec.MEMBER_BYTES;
          out.put(key, entry.getValue());
        }
      }
    }
  }

  /** One copy of a key or short text met before; its heap counted the first time only. */
  private String share(String text) {
    String known = shared.known(text);
    if (known != null) {
      return known;
    }
    bytes += JsonCodec.STRING_BYTES + text.length();
    return text;
  }

  private static JsonRefusal twice(String key, Mark mark) {
    return new JsonRefusal(
        JsonRefusal.Kind.DUPLICATE_KEY,
        "has the key '" + Numbers.shorten(key) + "' twice in one map",
        YamlCodec.where(mark));
  }

  private static JsonRefusal mergeRefusal(Mark mark) {
    return new JsonRefusal(
        JsonRefusal.Kind.UNSUPPORTED,
        "has a merge key '<<' whose value is not a map or a list of maps",
        YamlCodec.where(mark));
  }

  private static JsonRefusal notScalarKey(Mark mark) {
    return new JsonRefusal(
        JsonRefusal.Kind.UNSUPPORTED,
        "has a key that is not a string (a list or a map as a key)",
        YamlCodec.where(mark));
  }
}
