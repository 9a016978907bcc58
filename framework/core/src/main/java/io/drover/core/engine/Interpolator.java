package io.drover.core.engine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Replaces {@code ${NAME}} references in task config and env with values from the task's environment, as
 * Nomad does for its runtime variables. {@code ${env["NAME"]}} is accepted too. A reference to an unknown
 * name is left as written; <code>$${</code> is a literal <code>${</code>. Pure.
 */
final class Interpolator {
    private final Map<String, String> vars;

    Interpolator(Map<String, String> vars) {
        this.vars = vars;
    }

    String apply(String s) {
        if (s.indexOf("${") < 0) {
            return s;
        }
        StringBuilder out = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            int start = s.indexOf("${", i);
            if (start < 0) {
                break;
            }
            if (start > 0 && s.charAt(start - 1) == '$') {
                // "$${" is HCL's escape for a literal "${"
                out.append(s, i, start - 1).append("${");
                i = start + 2;
                continue;
            }
            int end = s.indexOf('}', start + 2);
            if (end < 0) {
                break;
            }
            out.append(s, i, start);
            String ref = s.substring(start + 2, end).trim();
            String name = ref;
            if (ref.startsWith("env[\"") && ref.endsWith("\"]")) {
                name = ref.substring(5, ref.length() - 2);
            }
            String value = vars.get(name);
            out.append(value != null ? value : s.substring(start, end + 1));
            i = end + 1;
        }
        out.append(s.substring(i));
        return out.toString();
    }

    Object applyAny(Object value) {
        if (value instanceof String s) {
            return apply(s);
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            for (Object o : list) {
                out.add(applyAny(o));
            }
            return out;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k), applyAny(v)));
            return out;
        }
        return value;
    }

    Map<String, Object> applyAll(Map<String, Object> config) {
        Map<String, Object> out = new LinkedHashMap<>();
        config.forEach((k, v) -> out.put(k, applyAny(v)));
        return out;
    }
}
