package io.drover.cli.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.drover.core.state.AllocationState;
import java.util.List;

/**
 * Allocations as JSON in Nomad's API shape (the records carry Nomad's field names): instants as RFC 3339
 * strings, unset instants as {@code null}, event times as unix nanoseconds, pretty-printed.
 */
public final class AllocJson {
    private AllocJson() {}

    public static ObjectMapper mapper() {
        return new ObjectMapper()
                .registerModule(new JavaTimeModule())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .enable(SerializationFeature.INDENT_OUTPUT);
    }

    /** A JSON array of the allocations, in the given order, ending with a newline. */
    public static String format(List<AllocationState> allocs) {
        try {
            return mapper().writeValueAsString(allocs) + "\n";
        } catch (JsonProcessingException e) {
            // Records of strings, numbers, enums and instants always serialise; this is a programming error.
            throw new IllegalStateException("cannot serialise allocations: " + e.getOriginalMessage(), e);
        }
    }
}
