package io.drover.core.spec.parse.tree;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads strict JSON into a neutral tree with the line of every key and value (Jackson's streaming parser).
 * Keys are canonical as written; duplicate keys are refused; {@code null} members are left out ("unset"),
 * null list elements kept as null scalars. The root must be an object. Pure; throws only {@link TreeProblem}.
 */
public final class JsonTrees {
    /** Deepest nesting of arrays and objects accepted. */
    public static final int MAX_DEPTH = 64;

    private static final JsonFactory FACTORY = JsonFactory.builder().build();

    private JsonTrees() {}

    public static Node.Mapping parse(String text) throws TreeProblem {
        try (JsonParser p = FACTORY.createParser(text)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                throw new TreeProblem(0, "", "empty file");
            }
            if (first != JsonToken.START_OBJECT) {
                throw new TreeProblem(line(p), "", "expected a JSON object, found " + first.asString());
            }
            Node.Mapping root = (Node.Mapping) value(p, 1);
            JsonToken trailing = p.nextToken();
            if (trailing != null) {
                throw new TreeProblem(line(p), "", "unexpected content after the JSON object");
            }
            return root;
        } catch (JsonProcessingException e) {
            JsonLocation loc = e.getLocation();
            throw new TreeProblem(loc == null ? 0 : Math.max(0, loc.getLineNr()), "",
                    "JSON syntax: " + firstLine(e.getOriginalMessage()));
        } catch (IOException e) {
            throw new TreeProblem(0, "", "JSON syntax: " + firstLine(e.getMessage()));
        }
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable JSON";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    private static int line(JsonParser p) {
        return Math.max(0, p.currentTokenLocation().getLineNr());
    }

    /** The value starting at the current token. */
    private static Node value(JsonParser p, int depth) throws IOException, TreeProblem {
        int line = line(p);
        JsonToken t = p.currentToken();
        if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
            if (depth > MAX_DEPTH) {
                throw new TreeProblem(line, "", "nested more than " + MAX_DEPTH + " levels deep");
            }
            return t == JsonToken.START_OBJECT ? object(p, depth, line) : array(p, depth, line);
        }
        return switch (t) {
            case VALUE_STRING -> new Node.Scalar(p.getText(), line);
            case VALUE_NUMBER_INT -> {
                if (p.getNumberType() != JsonParser.NumberType.INT && p.getNumberType() != JsonParser.NumberType.LONG) {
                    throw new TreeProblem(line, "", "number out of range: " + p.getText());
                }
                yield new Node.Scalar(p.getLongValue(), line);
            }
            case VALUE_NUMBER_FLOAT -> {
                double d = p.getDoubleValue();
                if (Double.isInfinite(d) || Double.isNaN(d)) {
                    throw new TreeProblem(line, "", "number out of range: " + p.getText());
                }
                yield new Node.Scalar(d, line);
            }
            case VALUE_TRUE -> new Node.Scalar(Boolean.TRUE, line);
            case VALUE_FALSE -> new Node.Scalar(Boolean.FALSE, line);
            case VALUE_NULL -> new Node.Scalar(null, line);
            default -> throw new TreeProblem(line, "", "unexpected JSON token " + t);
        };
    }

    private static Node object(JsonParser p, int depth, int line) throws IOException, TreeProblem {
        List<Field> fields = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            int keyLine = line(p);
            Integer first = seen.putIfAbsent(name, keyLine);
            if (first != null) {
                throw new TreeProblem(keyLine, name, "duplicate key (first at line " + first + ")");
            }
            p.nextToken();
            Node v = value(p, depth + 1);
            if (!(v instanceof Node.Scalar s && s.value() == null)) {
                fields.add(Field.of(name, v, keyLine));
            }
        }
        if (t != JsonToken.END_OBJECT) {
            throw new TreeProblem(line, "", "JSON syntax: the object is not closed");
        }
        return new Node.Mapping(List.of(), fields, line);
    }

    private static Node array(JsonParser p, int depth, int line) throws IOException, TreeProblem {
        List<Node> items = new ArrayList<>();
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            if (t == null) {
                throw new TreeProblem(line, "", "JSON syntax: the list is not closed");
            }
            items.add(value(p, depth + 1));
        }
        return new Node.Sequence(items, line);
    }
}
