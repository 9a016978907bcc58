package io.drover.driver.api.schema;

import io.drover.driver.api.ConfigProblem;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Converts one raw config value (String, Long, Double, Boolean, List, Map: what the job file parser yields) to
 * the Java type of a {@link ValueType}, as HCL2's type conversion would: a number or bool becomes a string, a
 * string holding a number or bool becomes one. Pure.
 */
final class Conversions {
    private Conversions() {}

    static final String DURATION_PROBLEM = "must be a duration like \"5s\" or \"1m30s\", not negative";

    /**
     * @param defer when true a string holding an interpolation ({@code ${...}}) is accepted for any scalar type
     *     as is: its value is only known when the task starts, where it is converted again
     * @return the converted value, or null after adding a problem
     */
    static Object convert(ValueType type, Object raw, String key, List<ConfigProblem> problems, boolean defer) {
        if (defer && raw instanceof String s && s.contains("${") && type != ValueType.LIST_STRING
                && type != ValueType.MAP_STRING) {
            return s;
        }
        Object converted = switch (type) {
            case STRING -> string(raw);
            case BOOL -> bool(raw);
            case INT -> integer(raw);
            case NUMBER -> number(raw);
            case DURATION -> duration(raw);
            case LIST_STRING -> list(raw, key, problems, defer);
            case MAP_STRING -> map(raw, key, problems, defer);
            case ANY -> raw;
        };
        if (converted == null) {
            problems.add(new ConfigProblem(key, message(type, raw)));
        }
        return converted;
    }

    private static String message(ValueType type, Object raw) {
        String what = switch (type) {
            case STRING -> "must be a string";
            case BOOL -> "must be true or false";
            case INT -> "must be a whole number";
            case NUMBER -> "must be a number";
            case DURATION -> DURATION_PROBLEM;
            case LIST_STRING -> "must be a list of strings";
            case MAP_STRING -> "must be a map of strings";
            case ANY -> "must be a value";
        };
        return what + ", found " + shown(raw);
    }

    /** A raw value as the user wrote it, short: {@code "yes"}, {@code 5}, {@code a list}, {@code a block}. */
    static String shown(Object raw) {
        if (raw instanceof String s) {
            return quote(s.length() > 60 ? s.substring(0, 57) + "..." : s);
        }
        if (raw instanceof List<?>) {
            return "a list";
        }
        if (raw instanceof Map<?, ?>) {
            return "a block or map";
        }
        return String.valueOf(raw);
    }

    private static String string(Object raw) {
        if (raw instanceof String s) {
            return s;
        }
        if (raw instanceof Boolean || raw instanceof Number) {
            return text(raw);
        }
        return null;
    }

    private static Boolean bool(Object raw) {
        if (raw instanceof Boolean b) {
            return b;
        }
        if ("true".equals(raw)) {
            return true;
        }
        if ("false".equals(raw)) {
            return false;
        }
        return null;
    }

    private static BigDecimal decimal(Object raw) {
        try {
            if (raw instanceof BigDecimal d) {
                return d;
            }
            if (raw instanceof BigInteger i) {
                return new BigDecimal(i);
            }
            if (raw instanceof Double || raw instanceof Float) {
                double d = ((Number) raw).doubleValue();
                return Double.isFinite(d) ? BigDecimal.valueOf(d) : null;
            }
            if (raw instanceof Number n) {
                return BigDecimal.valueOf(n.longValue());
            }
            if (raw instanceof String s && !s.isEmpty() && s.strip().equals(s)) {
                return new BigDecimal(s);
            }
        } catch (NumberFormatException e) {
            return null;
        }
        return null;
    }

    private static Long integer(Object raw) {
        BigDecimal d = decimal(raw);
        if (d == null) {
            return null;
        }
        try {
            return d.stripTrailingZeros().toBigIntegerExact().longValueExact();
        } catch (ArithmeticException e) {
            return null;
        }
    }

    private static Double number(Object raw) {
        BigDecimal d = decimal(raw);
        return d == null ? null : d.doubleValue();
    }

    private static Duration duration(Object raw) {
        if (raw instanceof Duration d) {
            return d.isNegative() ? null : d; // a block read once already (ConfigView.asMap)
        }
        String s = string(raw);
        if (s == null) {
            return null;
        }
        try {
            Duration d = GoDurations.parse(s);
            return d.isNegative() ? null : d;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static List<String> list(Object raw, String key, List<ConfigProblem> problems, boolean defer) {
        if (!(raw instanceof List<?> items)) {
            return null;
        }
        List<String> out = new ArrayList<>();
        boolean ok = true;
        for (int i = 0; i < items.size(); i++) {
            Object item = items.get(i);
            String s = item == null ? null : string(item);
            if (s == null) {
                problems.add(new ConfigProblem(key + "[" + i + "]", "must be a string, found " + shown(item)));
                ok = false;
            }
            out.add(s);
        }
        return ok ? Collections.unmodifiableList(out) : List.of();
    }

    private static Map<String, String> map(Object raw, String key, List<ConfigProblem> problems, boolean defer) {
        if (!(raw instanceof Map<?, ?> entries)) {
            return null;
        }
        Map<String, String> out = new LinkedHashMap<>();
        boolean ok = true;
        for (Map.Entry<?, ?> e : new TreeMap<>(entries).entrySet()) {
            Object value = e.getValue();
            String s = value == null ? null : string(value);
            if (s == null) {
                problems.add(new ConfigProblem(key + "." + e.getKey(), "must be a string, found " + shown(value)));
                ok = false;
            }
            out.put(String.valueOf(e.getKey()), s);
        }
        return ok ? Collections.unmodifiableMap(out) : Map.of();
    }

    /** A converted scalar as text, as HCL2 converts it to a string: {@code 5}, {@code 0.5}, {@code true}. */
    static String text(Object value) {
        if (value instanceof Double d && d == Math.rint(d) && !Double.isInfinite(d) && Math.abs(d) < 1e15) {
            return Long.toString(d.longValue());
        }
        if (value instanceof BigDecimal d) {
            return d.stripTrailingZeros().toPlainString();
        }
        return String.valueOf(value);
    }

    /** A raw value as an HCL expression (the text of an {@code hclspec.Literal}). */
    static String literal(Object raw) {
        if (raw instanceof String s) {
            return quote(s);
        }
        if (raw instanceof List<?> items) {
            List<String> parts = new ArrayList<>();
            items.forEach(i -> parts.add(literal(i)));
            return "[" + String.join(", ", parts) + "]";
        }
        if (raw instanceof Map<?, ?> entries) {
            List<String> parts = new ArrayList<>();
            new TreeMap<>(entries).forEach((k, v) -> parts.add(quote(String.valueOf(k)) + " = " + literal(v)));
            return "{" + String.join(", ", parts) + "}";
        }
        return text(raw);
    }

    /** An HCL/JSON quoted string. */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
