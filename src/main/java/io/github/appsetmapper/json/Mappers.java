package io.github.appsetmapper.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.math.BigDecimal;

/**
 * The codec's Jackson mappers, each made when first asked for (a holder class apiece): making one
 * loads about 400 classes of databind, which plain data (every answer, every input key) never
 * needs, so they are not made on the way to the first answer. They write decimals plainly, as
 * {@link PlainWriter} does.
 */
final class Mappers {
  private Mappers() {}

  static ObjectMapper compact() {
    return Compact.MAPPER;
  }

  static ObjectMapper pretty() {
    return Pretty.MAPPER;
  }

  /** The mapper whose settings {@code out} was made with: indented or compact. */
  static ObjectMapper forGenerator(JsonGenerator out) {
    return out.getPrettyPrinter() == null ? compact() : pretty();
  }

  private static final class Compact {
    static final ObjectMapper MAPPER = make(false);
  }

  private static final class Pretty {
    static final ObjectMapper MAPPER = make(true);
  }

  private static ObjectMapper make(boolean indent) {
    SimpleModule numbers = new SimpleModule("appset-mapper-numbers");
    numbers.addSerializer(BigDecimal.class, new DecimalSerializer());
    ObjectMapper mapper = new ObjectMapper(JsonCodec.factory().copy()).registerModule(numbers);
    return indent ? mapper.enable(SerializationFeature.INDENT_OUTPUT) : mapper;
  }

  /** Plain decimals, the scientific form only where the plain one would be huge. */
  private static final class DecimalSerializer extends StdSerializer<BigDecimal> {
    private static final long serialVersionUID = 1L;

    DecimalSerializer() {
      super(BigDecimal.class);
    }

    @Override
    public void serialize(BigDecimal value, JsonGenerator gen, SerializerProvider provider)
        throws IOException {
      gen.writeNumber(Numbers.plain(value));
    }
  }
}
