package io.drover.nomad.wire;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the values Nomad sends for a plugin block or a task config: go-cty's msgpack encoding of a cty value
 * ({@code msgpack.Marshal(val, type)}). The encoding is self-describing enough to read without the type: null is
 * msgpack nil, a bool a bool, a string a string, a number an integer, a float64 or (for numbers a float64 cannot
 * hold) their decimal text, a list/set/tuple an array, a map/object a map with string keys, and a value of the
 * dynamic pseudo-type a 2-element array of its type's JSON and the value. An unknown value (go-cty's extension
 * type 0) is refused: Nomad never sends one for a config that validated.
 *
 * <p>Results: {@code null}, Boolean, String, Long, Double, {@code List<Object>} or {@code Map<String, Object>}
 * (insertion order = wire order). Pure; any thread.
 */
public final class CtyMsgpack {
    private final ByteBuffer in;

    private CtyMsgpack(byte[] bytes) {
        this.in = ByteBuffer.wrap(bytes);
    }

    /** Decodes one value that must fill {@code bytes}; an empty array is null (no config given). */
    public static Object decode(byte[] bytes) {
        if (bytes.length == 0) {
            return null;
        }
        CtyMsgpack r = new CtyMsgpack(bytes);
        try {
            Object v = r.value();
            if (r.in.hasRemaining()) {
                throw new IllegalArgumentException(r.in.remaining() + " bytes after the value");
            }
            return v;
        } catch (java.nio.BufferUnderflowException e) {
            throw new IllegalArgumentException("truncated msgpack value");
        }
    }

    /**
     * Decodes a value of an object type (the plugin block, a task config) into its attributes, leaving out the
     * null ones (attributes the user did not set).
     */
    public static Map<String, Object> decodeObject(byte[] bytes) {
        Object v = decode(bytes);
        if (v == null) {
            return Map.of();
        }
        if (!(v instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException("expected an object, got " + describe(v));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        m.forEach((k, val) -> {
            if (val != null) {
                out.put((String) k, val);
            }
        });
        return out;
    }

    private Object value() {
        int b = in.get() & 0xff;
        if (b <= 0x7f) {
            return (long) b;
        }
        if (b >= 0xe0) {
            return (long) (byte) b;
        }
        if ((b & 0xe0) == 0xa0) {
            return string(b & 0x1f);
        }
        if ((b & 0xf0) == 0x90) {
            return array(b & 0x0f);
        }
        if ((b & 0xf0) == 0x80) {
            return map(b & 0x0f);
        }
        return switch (b) {
            case 0xc0 -> null;
            case 0xc2 -> Boolean.FALSE;
            case 0xc3 -> Boolean.TRUE;
            case 0xc4 -> bytes(in.get() & 0xff);
            case 0xc5 -> bytes(in.getShort() & 0xffff);
            case 0xc6 -> bytes(length(in.getInt()));
            case 0xca -> (double) in.getFloat();
            case 0xcb -> in.getDouble();
            case 0xcc -> (long) (in.get() & 0xff);
            case 0xcd -> (long) (in.getShort() & 0xffff);
            case 0xce -> in.getInt() & 0xffffffffL;
            case 0xcf -> unsigned64(in.getLong());
            case 0xd0 -> (long) in.get();
            case 0xd1 -> (long) in.getShort();
            case 0xd2 -> (long) in.getInt();
            case 0xd3 -> in.getLong();
            case 0xd9 -> string(in.get() & 0xff);
            case 0xda -> string(in.getShort() & 0xffff);
            case 0xdb -> string(length(in.getInt()));
            case 0xdc -> array(in.getShort() & 0xffff);
            case 0xdd -> array(length(in.getInt()));
            case 0xde -> map(in.getShort() & 0xffff);
            case 0xdf -> map(length(in.getInt()));
            case 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xc7, 0xc8, 0xc9 ->
                    throw new IllegalArgumentException("an unknown value (not yet known when the client encoded it)");
            default -> throw new IllegalArgumentException(String.format("unexpected msgpack byte 0x%02x", b));
        };
    }

    private static long unsigned64(long v) {
        if (v < 0) {
            throw new IllegalArgumentException("number out of range");
        }
        return v;
    }

    private int length(int n) {
        if (n < 0 || n > in.remaining()) {
            throw new IllegalArgumentException("truncated msgpack value");
        }
        return n;
    }

    private Object string(int n) {
        byte[] b = new byte[length(n)];
        in.get(b);
        String s = new String(b, StandardCharsets.UTF_8);
        return s;
    }

    private Object bytes(int n) {
        byte[] b = new byte[length(n)];
        in.get(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    private Object array(int n) {
        length(n); // each element takes at least one byte
        List<Object> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(value());
        }
        return out;
    }

    private Object map(int n) {
        length(n);
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            Object k = value();
            if (!(k instanceof String key)) {
                throw new IllegalArgumentException("a map key that is not a string: " + describe(k));
            }
            out.put(key, value());
        }
        return out;
    }

    /** A value's kind as a user reads it in a message. */
    public static String describe(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof String) {
            return "a string";
        }
        if (v instanceof Boolean) {
            return "a bool";
        }
        if (v instanceof Long || v instanceof Double) {
            return "a number";
        }
        if (v instanceof List<?>) {
            return "a list";
        }
        return "an object";
    }
}
