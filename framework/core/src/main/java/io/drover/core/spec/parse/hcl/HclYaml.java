package io.drover.core.spec.parse.hcl;

import java.util.List;
import java.util.Map;

/** {@code yamlencode()}: block-style YAML of a plain value, strings quoted as JSON (valid YAML). Pure. */
final class HclYaml {
    private HclYaml() {}

    static String encode(Object v) throws HclValues.ValueException {
        StringBuilder sb = new StringBuilder();
        if (v instanceof Map<?, ?> || v instanceof List<?>) {
            block(v, 0, sb);
        } else {
            sb.append(scalar(v)).append('\n');
        }
        return sb.toString();
    }

    private static void block(Object v, int indent, StringBuilder sb) throws HclValues.ValueException {
        String pad = "  ".repeat(indent);
        if (v instanceof Map<?, ?> m) {
            if (m.isEmpty()) {
                sb.append(pad).append("{}\n");
            }
            for (Map.Entry<?, ?> e : m.entrySet()) {
                sb.append(pad).append(HclEncodingFunctions.json(String.valueOf(e.getKey()))).append(':');
                child(e.getValue(), indent, sb);
            }
        } else if (v instanceof List<?> l) {
            if (l.isEmpty()) {
                sb.append(pad).append("[]\n");
            }
            for (Object x : l) {
                sb.append(pad).append('-');
                child(x, indent, sb);
            }
        }
    }

    private static void child(Object x, int indent, StringBuilder sb) throws HclValues.ValueException {
        if ((x instanceof Map<?, ?> m && !m.isEmpty()) || (x instanceof List<?> l && !l.isEmpty())) {
            sb.append('\n');
            block(x, indent + 1, sb);
        } else {
            sb.append(' ').append(x instanceof Map<?, ?> ? "{}" : x instanceof List<?> ? "[]" : scalar(x)).append('\n');
        }
    }

    private static String scalar(Object v) throws HclValues.ValueException {
        return v == null ? "null" : v instanceof String s ? HclEncodingFunctions.json(s) : HclValues.str(v);
    }
}
