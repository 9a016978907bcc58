package io.drover.nomad.wire;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One attribute of a config block as Nomad's hclspec declares it: its name, its cty type and whether it is
 * required. Immutable.
 *
 * @param type one of {@link Type}
 */
public record ConfigKey(String name, Type type, boolean required) {

    /** The cty types Drover's drivers take, with the type expression hclspec writes for each. */
    public enum Type {
        STRING("string"),
        NUMBER("number"),
        BOOL("bool"),
        LIST_OF_STRING("list(string)"),
        MAP_OF_STRING("map(string)");

        private final String expression;

        Type(String expression) {
            this.expression = expression;
        }

        /** The hclspec {@code Attr.type} expression. */
        public String expression() {
            return expression;
        }
    }

    public static ConfigKey optional(String name, Type type) {
        return new ConfigKey(name, type, false);
    }

    public static ConfigKey required(String name, Type type) {
        return new ConfigKey(name, type, true);
    }

    /**
     * The value as a Drover driver takes it (String, Long or Double, Boolean, {@code List<String>},
     * {@code Map<String, String>}), or a problem for this key. Numbers that go-cty sent as text (too precise for a
     * float64) are read back as numbers.
     */
    public Result convert(Object value) {
        switch (type) {
            case STRING:
                return value instanceof String ? Result.ok(value) : wrong(value);
            case BOOL:
                return value instanceof Boolean ? Result.ok(value) : wrong(value);
            case NUMBER:
                if (value instanceof Long || value instanceof Double) {
                    return Result.ok(value);
                }
                if (value instanceof String s) {
                    try {
                        BigDecimal d = new BigDecimal(s);
                        return Result.ok(d.stripTrailingZeros().scale() <= 0 && d.toBigInteger().bitLength() < 63 ? (Object) d.longValueExact()
                                : (Object) d.doubleValue());
                    } catch (NumberFormatException | ArithmeticException e) {
                        return wrong(value);
                    }
                }
                return wrong(value);
            case LIST_OF_STRING:
                if (value instanceof List<?> list && list.stream().allMatch(e -> e instanceof String)) {
                    return Result.ok(new ArrayList<>(list));
                }
                return wrong(value);
            case MAP_OF_STRING:
                if (value instanceof Map<?, ?> map && map.values().stream().allMatch(e -> e instanceof String)) {
                    return Result.ok(new LinkedHashMap<>(map));
                }
                return wrong(value);
            default:
                throw new IllegalStateException(type.name());
        }
    }

    private Result wrong(Object value) {
        return Result.problem(name + ": must be " + type.expression() + ", got " + CtyMsgpack.describe(value));
    }

    /** A converted value or a problem line. */
    public record Result(Object value, Optional<String> problem) {
        static Result ok(Object value) {
            return new Result(value, Optional.empty());
        }

        static Result problem(String line) {
            return new Result(null, Optional.of(line));
        }
    }
}
