package io.drover.cli.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * Reads JSON text into Jackson's {@link JsonNode} tree with the streaming parser only. The tree is the one
 * {@code ObjectMapper.readTree} builds (ints, longs and big integers as such, decimals as doubles, the last of
 * duplicate keys wins), without an {@code ObjectMapper}: creating one costs a CLI call ~70 ms even with the
 * AppCDS archive, the parser ~5 ms (docs/performance.md, "Client commands"). Nesting is bounded by the
 * parser's {@code StreamReadConstraints}. Stateless and thread-safe.
 */
final class JsonTree {
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private JsonTree() {}

    /**
     * An API answer's tree: an empty object for a blank body.
     *
     * @throws io.drover.cli.UserException (exit 1) naming the parser's complaint when the body is not JSON
     */
    static JsonNode answer(String body) {
        try {
            return body.isBlank() ? NODES.objectNode() : parse(body);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw ApiClient.notJson(e.getOriginalMessage());
        } catch (IOException e) {
            throw ApiClient.notJson(e.getMessage());
        }
    }

    /**
     * The tree of one JSON value (text after it is ignored, as {@code readTree} does).
     *
     * @throws com.fasterxml.jackson.core.JsonProcessingException when the text is not JSON
     */
    static JsonNode parse(String text) throws IOException {
        try (JsonParser p = FACTORY.createParser(text)) {
            JsonToken t = p.nextToken();
            if (t == null) {
                return NODES.missingNode();
            }
            return value(p, t);
        }
    }

    private static JsonNode value(JsonParser p, JsonToken t) throws IOException {
        if (t == null) {
            throw new com.fasterxml.jackson.core.JsonParseException(p, "unexpected end of input");
        }
        switch (t) {
            case START_OBJECT:
                ObjectNode o = NODES.objectNode();
                for (JsonToken k = p.nextToken(); k == JsonToken.FIELD_NAME; k = p.nextToken()) {
                    String name = p.currentName();
                    o.set(name, value(p, p.nextToken()));
                }
                return o;
            case START_ARRAY:
                ArrayNode a = NODES.arrayNode();
                for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
                    a.add(value(p, e));
                }
                return a;
            case VALUE_STRING:
                return NODES.textNode(p.getText());
            case VALUE_NUMBER_INT:
                switch (p.getNumberType()) {
                    case INT:
                        return NODES.numberNode(p.getIntValue());
                    case LONG:
                        return NODES.numberNode(p.getLongValue());
                    default:
                        return NODES.numberNode(p.getBigIntegerValue());
                }
            case VALUE_NUMBER_FLOAT:
                return NODES.numberNode(p.getDoubleValue());
            case VALUE_TRUE:
                return NODES.booleanNode(true);
            case VALUE_FALSE:
                return NODES.booleanNode(false);
            case VALUE_NULL:
                return NODES.nullNode();
            default:
                throw new com.fasterxml.jackson.core.JsonParseException(p, "unexpected token " + t);
        }
    }
}
