package io.drover.agent.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;

/**
 * The API's one Jackson mapper: Nomad's field names come from the records' annotations, instants are written
 * as ISO-8601 strings (as Nomad's Go times are), and request bodies are read under hard limits so that a
 * hostile body costs bounded memory and stack: nesting depth {@value #MAX_DEPTH}, strings up to the body limit.
 * Thread-safe.
 */
public final class Json {
    /** Deepest JSON nesting a request may use; a job needs about 8 levels. */
    public static final int MAX_DEPTH = 64;

    public static final ObjectMapper MAPPER = create();

    private Json() {}

    private static ObjectMapper create() {
        JsonFactory factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(MAX_DEPTH)
                        .maxStringLength(ApiRequest.MAX_BODY_BYTES)
                        .maxNumberLength(100)
                        .build())
                .build();
        return new ObjectMapper(factory)
                .registerModule(new JavaTimeModule())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    }

    /**
     * Parses a request body as a JSON tree under the limits above.
     *
     * @throws ApiException 400 with the parser's first line when the body is not one well-formed JSON value
     */
    public static JsonNode parse(byte[] body) throws ApiException {
        if (body.length == 0) {
            throw ApiException.badRequest("request body is empty; expected JSON");
        }
        try {
            JsonNode node = MAPPER.readTree(body);
            if (node == null || node.isMissingNode()) {
                throw ApiException.badRequest("request body is empty; expected JSON");
            }
            return node;
        } catch (IOException e) {
            throw ApiException.badRequest("invalid JSON: " + firstLine(e.getMessage()));
        }
    }

    static String firstLine(String message) {
        if (message == null) {
            return "unreadable input";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
