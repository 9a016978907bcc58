package io.drover.core.spec.parse.hcl;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The values an expression evaluates to, as plain Java: {@link String}, {@link Long} or {@link Double} (a
 * whole double is always normalised to a Long), {@link Boolean}, {@code null}, an unmodifiable {@link List}
 * and an unmodifiable {@link Map} with String keys (sorted, as HCL's objects are, unless built from an object
 * literal). HCL2's automatic conversions ("5" to 5, "true" to true, 5 to "5") live here. Pure.
 */
public final class HclValues {
    private HclValues() {}

    /** A conversion or type error; the caller adds the position. */
    public static final class ValueException extends Exception {
        public ValueException(String message) {
            super(message, null, false, false);
        }
    }

    public static Object number(double d) {
        if (d == Math.rint(d) && !Double.isInfinite(d) && Math.abs(d) < 9.007199254740992E15) {
            return (long) d;
        }
        return d;
    }

    public static String typeName(Object v) {
        if (v == null) {
            return "null";
        } else if (v instanceof String) {
            return "string";
        } else if (v instanceof Number) {
            return "number";
        } else if (v instanceof Boolean) {
            return "bool";
        } else if (v instanceof List) {
            return "list";
        }
        return "object";
    }

    public static String str(Object v) throws ValueException {
        if (v instanceof String s) {
            return s;
        } else if (v instanceof Long || v instanceof Boolean) {
            return String.valueOf(v);
        } else if (v instanceof Double d) {
            return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
        } else if (v == null) {
            throw new ValueException("a null value cannot be used as a string");
        }
        throw new ValueException("a " + typeName(v) + " cannot be used as a string");
    }

    public static Number num(Object v) throws ValueException {
        if (v instanceof Long || v instanceof Double) {
            return (Number) v;
        } else if (v instanceof String s) {
            try {
                String t = s.strip();
                if (t.matches("-?\\d+")) {
                    return Long.parseLong(t);
                }
                return (Number) number(Double.parseDouble(t));
            } catch (NumberFormatException e) {
                throw new ValueException("\"" + s + "\" is not a number");
            }
        }
        throw new ValueException("a " + typeName(v) + " cannot be used as a number");
    }

    public static long integer(Object v) throws ValueException {
        Number n = num(v);
        if (n instanceof Long l) {
            return l;
        }
        throw new ValueException(str(n) + " is not a whole number");
    }

    public static boolean bool(Object v) throws ValueException {
        if (v instanceof Boolean b) {
            return b;
        } else if ("true".equals(v)) {
            return true;
        } else if ("false".equals(v)) {
            return false;
        }
        throw new ValueException((v instanceof String s ? "\"" + s + "\"" : "a " + typeName(v)) + " is not a bool");
    }

    @SuppressWarnings("unchecked")
    public static List<Object> list(Object v) throws ValueException {
        if (v instanceof List<?> l) {
            return (List<Object>) l;
        }
        throw new ValueException("a " + typeName(v) + " is not a list");
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> map(Object v) throws ValueException {
        if (v instanceof Map<?, ?> m) {
            return (Map<String, Object>) m;
        }
        throw new ValueException("a " + typeName(v) + " is not a map or object");
    }

    public static List<Object> listOf(List<Object> items) {
        return Collections.unmodifiableList(new ArrayList<>(items));
    }

    /** A map in HCL's key order (sorted). */
    public static Map<String, Object> sortedMap(Map<String, Object> m) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(new TreeMap<>(m)));
    }

    /** HCL2's equality: numbers by value, collections element by element. */
    public static boolean equal(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            return x.doubleValue() == y.doubleValue();
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size()) {
                return false;
            }
            for (int i = 0; i < x.size(); i++) {
                if (!equal(x.get(i), y.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            if (!x.keySet().equals(y.keySet())) {
                return false;
            }
            for (Object k : x.keySet()) {
                if (!equal(x.get(k), y.get(k))) {
                    return false;
                }
            }
            return true;
        }
        return a == null ? b == null : a.equals(b);
    }

    /** The plain value of a literal. */
    public static Object of(HclValue v) {
        if (v instanceof HclValue.Str s) {
            return s.value();
        } else if (v instanceof HclValue.Num n) {
            return n.value() instanceof Double d ? number(d) : n.value();
        } else if (v instanceof HclValue.Bool b) {
            return b.value();
        } else if (v instanceof HclValue.ListValue l) {
            List<Object> out = new ArrayList<>();
            l.items().forEach(i -> out.add(of(i)));
            return Collections.unmodifiableList(out);
        } else if (v instanceof HclValue.ObjectValue o) {
            Map<String, Object> out = new LinkedHashMap<>();
            o.entries().forEach(a -> out.put(a.name(), of(a.value())));
            return sortedMap(out);
        }
        return null;
    }

    /** A literal of a plain value, every part at {@code line}. */
    public static HclValue literal(Object v, int line) {
        if (v instanceof String s) {
            return new HclValue.Str(s, line);
        } else if (v instanceof Number n) {
            return new HclValue.Num(n, line);
        } else if (v instanceof Boolean b) {
            return new HclValue.Bool(b, line);
        } else if (v instanceof List<?> l) {
            return new HclValue.ListValue(l.stream().map(i -> literal(i, line)).toList(), line);
        } else if (v instanceof Map<?, ?> m) {
            List<HclAttribute> entries = new ArrayList<>();
            m.forEach((k, x) -> entries.add(new HclAttribute(String.valueOf(k), literal(x, line), line)));
            return new HclValue.ObjectValue(entries, line);
        }
        return new HclValue.Null(line);
    }
}
