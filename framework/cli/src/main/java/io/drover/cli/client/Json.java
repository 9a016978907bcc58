package io.drover.cli.client;

import com.fasterxml.jackson.core.io.NumberInput;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON value read by {@link JsonText} into a small tree of this one class, for the short read-only commands
 * ({@code alloc status}, {@code job status}, {@code plugin status}): neither databind's {@code JsonNode} classes
 * (session 13) nor Jackson core's factory and parser (session 14) are loaded on those paths (docs/performance.md). The reading methods are {@code JsonNode}'s, with its results (the same text of numbers, booleans
 * and null, the same coercions, {@code path} of a missing field a missing value, iteration over an object's
 * values); {@code JsonTest} holds them equal to databind's on every kind of value. The tree is what
 * {@code ObjectMapper.readTree} builds (ints and longs, big integers, decimals as doubles, the last of duplicate
 * keys). Immutable and thread-safe.
 */
public final class Json implements Iterable<Json> {
    private static final byte OBJECT = 0;
    private static final byte ARRAY = 1;
    private static final byte STRING = 2;
    private static final byte LONG = 3;
    private static final byte BIG = 4;
    private static final byte DOUBLE = 5;
    private static final byte TRUE = 6;
    private static final byte FALSE = 7;
    private static final byte NULL = 8;
    private static final byte MISSING = 9;

    private static final Json MISSING_VALUE = new Json(MISSING, null, 0, 0);

    private final byte kind;
    /** Map for an object, List for an array, String, BigInteger; else null. */
    private final Object ref;
    private final long longValue;
    private final double doubleValue;

    private Json(byte kind, Object ref, long longValue, double doubleValue) {
        this.kind = kind;
        this.ref = ref;
        this.longValue = longValue;
        this.doubleValue = doubleValue;
    }

    /**
     * The value of JSON text (text after it is ignored, as {@code readTree} does); a missing value for blank text.
     *
     * @throws IOException ({@link JsonText.Malformed}) when the text is not JSON; its message names the offset
     */
    public static Json parse(String text) throws IOException {
        Json v = JsonText.parseFirst(text);
        return v == null ? MISSING_VALUE : v;
    }

    static final Json TRUE_VALUE = new Json(TRUE, null, 1, 1);
    static final Json FALSE_VALUE = new Json(FALSE, null, 0, 0);
    static final Json NULL_VALUE = new Json(NULL, null, 0, 0);

    static Json object(Map<String, Json> fields) {
        return new Json(OBJECT, fields, 0, 0);
    }

    static Json array(List<Json> elements) {
        return new Json(ARRAY, elements, 0, 0);
    }

    static Json string(String s) {
        return new Json(STRING, s, 0, 0);
    }

    /** An integer that fits a long (Jackson's INT and LONG). */
    static Json integer(long l) {
        return new Json(LONG, null, l, l);
    }

    /** An integer beyond a long. */
    static Json big(BigInteger b) {
        return new Json(BIG, b, b.longValue(), b.doubleValue());
    }

    /** A number with a fraction or an exponent, read as a double. */
    static Json decimal(double d) {
        return new Json(DOUBLE, null, (long) d, d);
    }

    /** An empty object (what a blank answer reads as). */
    static Json emptyObject() {
        return new Json(OBJECT, Map.of(), 0, 0);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Json> object() {
        return (Map<String, Json>) ref;
    }

    @SuppressWarnings("unchecked")
    private List<Json> array() {
        return (List<Json>) ref;
    }

    /** The field of an object, else null (as {@code JsonNode.get}). */
    public Json get(String field) {
        return kind == OBJECT ? object().get(field) : null;
    }

    /** The field of an object, else a missing value (as {@code JsonNode.path}). */
    public Json path(String field) {
        Json v = get(field);
        return v == null ? MISSING_VALUE : v;
    }

    public boolean has(String field) {
        return get(field) != null;
    }

    public boolean hasNonNull(String field) {
        Json v = get(field);
        return v != null && v.kind != NULL;
    }

    public boolean isObject() {
        return kind == OBJECT;
    }

    public boolean isNull() {
        return kind == NULL;
    }

    public boolean isMissingNode() {
        return kind == MISSING;
    }

    public boolean isTextual() {
        return kind == STRING;
    }

    public boolean isNumber() {
        return kind == LONG || kind == BIG || kind == DOUBLE;
    }

    /** No fields or elements; true for any other value, as {@code JsonNode.isEmpty} (its size is 0). */
    public boolean isEmpty() {
        return switch (kind) {
            case OBJECT -> object().isEmpty();
            case ARRAY -> array().isEmpty();
            default -> true;
        };
    }

    /** The text of a string, a number, a boolean or {@code null}; empty for an object, an array, a missing value. */
    public String asText() {
        return switch (kind) {
            case STRING -> (String) ref;
            case LONG -> Long.toString(longValue);
            case BIG -> ref.toString();
            case DOUBLE -> Double.toString(doubleValue);
            case TRUE -> "true";
            case FALSE -> "false";
            case NULL -> "null";
            default -> "";
        };
    }

    /** {@link #asText()}, but {@code fallback} for null and a missing value. */
    public String asText(String fallback) {
        return kind == NULL || kind == MISSING ? fallback : asText();
    }

    public long asLong() {
        return switch (kind) {
            case LONG, BIG, DOUBLE, TRUE, FALSE -> kind == TRUE ? 1 : longValue;
            case STRING -> NumberInput.parseAsLong((String) ref, 0L);
            default -> 0L;
        };
    }

    public int asInt() {
        return switch (kind) {
            case LONG, BIG, DOUBLE, TRUE, FALSE -> kind == DOUBLE ? (int) doubleValue : (int) longValue;
            case STRING -> NumberInput.parseAsInt((String) ref, 0);
            default -> 0;
        };
    }

    public double asDouble() {
        return switch (kind) {
            case LONG, BIG, DOUBLE, TRUE, FALSE -> doubleValue;
            case STRING -> NumberInput.parseAsDouble((String) ref, 0.0, false);
            default -> 0.0;
        };
    }

    public boolean asBoolean() {
        return switch (kind) {
            case TRUE -> true;
            case LONG, BIG -> longValue != 0;
            case STRING -> "true".equals(((String) ref).trim());
            default -> false;
        };
    }

    /** An array's elements, an object's values (as {@code JsonNode}); nothing for any other value. */
    @Override
    public Iterator<Json> iterator() {
        return switch (kind) {
            case OBJECT -> Collections.unmodifiableCollection(object().values()).iterator();
            case ARRAY -> Collections.unmodifiableList(array()).iterator();
            default -> Collections.emptyIterator();
        };
    }

    /** An object's fields in their order; nothing for any other value. */
    public Iterator<Map.Entry<String, Json>> fields() {
        return kind == OBJECT ? Collections.unmodifiableMap(object()).entrySet().iterator()
                : Collections.emptyIterator();
    }
}
