package dev.switchboard.bench.harness;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Owns how the harness's JSON looks: the one Jackson mapper of the reports. Record components map to snake_case
 * keys ({@code samplesMs} to {@code samples_ms}); every double is written with four decimals, and NaN or an
 * infinity as {@code null}; objects are indented by two spaces, arrays stay on one line; keys a reader does not
 * know are ignored, so a newer report still reads.
 */
final class ReportMapper {
    static final ObjectMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .addModule(new SimpleModule("report-numbers")
                    .addSerializer(Double.class, new DoubleSerializer())
                    .addSerializer(double.class, new DoubleSerializer())
                    .addSerializer(double[].class, new DoubleArraySerializer()))
            .build();

    private ReportMapper() {
    }

    /** {@code value} as pretty-printed JSON, ending with a newline. */
    static String write(Object value) {
        try {
            return MAPPER.writer(printer()).writeValueAsString(value) + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static DefaultPrettyPrinter printer() {
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter(Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                .withArrayValueSpacing(Separators.Spacing.AFTER)
                .withObjectEmptySeparator("")
                .withArrayEmptySeparator(""));
        printer.indentObjectsWith(new DefaultIndenter("  ", "\n"));
        printer.indentArraysWith(DefaultPrettyPrinter.NopIndenter.instance);
        return printer;
    }

    private static void number(double d, JsonGenerator gen) throws IOException {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            gen.writeNull();
        } else {
            gen.writeNumber(BigDecimal.valueOf(d).setScale(4, RoundingMode.HALF_UP));
        }
    }

    private static final class DoubleSerializer extends StdSerializer<Double> {
        DoubleSerializer() {
            super(Double.class);
        }

        @Override
        public void serialize(Double value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            number(value, gen);
        }
    }

    private static final class DoubleArraySerializer extends StdSerializer<double[]> {
        DoubleArraySerializer() {
            super(double[].class);
        }

        @Override
        public void serialize(double[] values, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeStartArray(values, values.length);
            for (double d : values) {
                number(d, gen);
            }
            gen.writeEndArray();
        }
    }
}
