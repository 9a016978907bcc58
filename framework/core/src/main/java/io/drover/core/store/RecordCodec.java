package io.drover.core.store;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.io.OutputStream;

/**
 * JSON (de)serialisation of {@link Records.Rec}. The spec records ({@code Job} and friends) carry no Jackson
 * annotations: they serialise through their record components, durations as ISO-8601 strings, integral values of
 * a task's free-form {@code config} read back as {@code Long} (as the job parser produces them). Task events
 * are compact positional arrays ({@link EventCodec}). Records are written by hand ({@link RecordWriter}) and read
 * by hand ({@link RecordDeserializer}); only jobs and allocated resources go through databind. {@link #write} is
 * for one thread at a time (the store's writer); {@link #read} is thread-safe.
 */
final class RecordCodec {
    private final RecordWriter writer;
    private final ObjectReader reader;

    RecordCodec() {
        this(mapper());
    }

    private RecordCodec(ObjectMapper mapper) {
        writer = new RecordWriter(mapper);
        reader = mapper.readerFor(Records.Rec.class);
    }

    /** The store's mapper; tests compare {@link RecordWriter} with its reflective serialisation of a record. */
    static ObjectMapper mapper() {
        return JsonMapper.builder()
                .addModule(new JavaTimeModule())
                .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
                .enable(DeserializationFeature.USE_LONG_FOR_INTS)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .serializationInclusion(JsonInclude.Include.NON_NULL)
                .addModule(EventCodec.module())
                .addModule(new com.fasterxml.jackson.databind.module.SimpleModule("drover-store-records")
                        .addDeserializer(Records.Rec.class, new RecordDeserializer()))
                .build();
    }

    void write(Records.Rec rec, OutputStream out) throws IOException {
        writer.write(rec, out);
    }

    Records.Rec read(byte[] buf, int offset, int length) throws IOException {
        return reader.readValue(buf, offset, length);
    }
}
