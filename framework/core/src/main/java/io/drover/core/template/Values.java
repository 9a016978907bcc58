package io.drover.core.template;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Go's view of Java values: truth, printing ({@code %v}), numbers. Pure. */
final class Values {
    static final String NO_VALUE = "<no value>";

    private Values() {}

    /** Go's truth: false, 0, nil, and empty strings, lists and maps are false. */
    static boolean truth(Object v) {
        if (v == null) {
            return false;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof Number n) {
            return n.doubleValue() != 0;
        }
        if (v instanceof String s) {
            return !s.isEmpty();
        }
        if (v instanceof Collection<?> c) {
            return !c.isEmpty();
        }
        if (v instanceof Map<?, ?> m) {
            return !m.isEmpty();
        }
        return true;
    }

    static String print(Object v) {
        if (v == null) {
            return NO_VALUE;
        }
        if (v instanceof Double d) {
            if (d == Math.rint(d) && !Double.isInfinite(d) && Math.abs(d) < 1e21) {
                return String.valueOf(d.longValue());
            }
            return String.valueOf(d);
        }
        if (v instanceof List<?> l) {
            StringBuilder b = new StringBuilder("[");
            for (int i = 0; i < l.size(); i++) {
                b.append(i == 0 ? "" : " ").append(print(l.get(i)));
            }
            return b.append(']').toString();
        }
        if (v instanceof Map<?, ?> m) {
            StringBuilder b = new StringBuilder("map[");
            boolean first = true;
            for (Map.Entry<?, ?> e : sorted(m).entrySet()) {
                b.append(first ? "" : " ").append(e.getKey()).append(':').append(print(e.getValue()));
                first = false;
            }
            return b.append(']').toString();
        }
        return String.valueOf(v);
    }

    static Map<String, Object> sorted(Map<?, ?> m) {
        Map<String, Object> out = new TreeMap<>();
        m.forEach((k, v) -> out.put(String.valueOf(k), v));
        return out;
    }

    static boolean integral(Object v) {
        return v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte;
    }

    static Number number(Object v, String fn) throws TemplateException {
        if (v instanceof Number n) {
            return n;
        }
        if (v instanceof String s) {
            try {
                return s.contains(".") ? (Number) Double.parseDouble(s.trim()) : (Number) Long.parseLong(s.trim());
            } catch (NumberFormatException e) {
                throw new TemplateException(fn + ": \"" + s + "\" is not a number");
            }
        }
        throw new TemplateException(fn + ": " + print(v) + " is not a number");
    }
}
