package io.drover.core.spec.parse.hcl;

import io.drover.core.spec.parse.hcl.HclValues.ValueException;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** HCL2's for expressions ({@code [for ...]}, {@code {for ... => ...}}, grouping with {@code ...}). Pure. */
final class HclForExpressions {
    private HclForExpressions() {}

    /** The (key, value) pairs a for iterates: index and element of a list, key and value of a map. */
    static List<Map.Entry<Object, Object>> entries(Object coll) throws ValueException {
        List<Map.Entry<Object, Object>> out = new ArrayList<>();
        if (coll instanceof List<?> l) {
            for (int i = 0; i < l.size(); i++) {
                out.add(new AbstractMap.SimpleImmutableEntry<>((long) i, l.get(i)));
            }
        } else if (coll instanceof Map<?, ?> m) {
            new java.util.TreeMap<>(m).forEach((k, v) -> out.add(new AbstractMap.SimpleImmutableEntry<>(k, v)));
        } else {
            throw new ValueException("cannot iterate over a " + HclValues.typeName(coll) + " (a list or a map is needed)");
        }
        return out;
    }

    static Object eval(HclEvaluator ev, HclExpr.For f, HclScope scope) throws HclSyntaxException {
        Object coll = ev.eval(f.collection(), scope);
        List<Map.Entry<Object, Object>> entries;
        try {
            entries = entries(coll);
        } catch (ValueException e) {
            throw new HclSyntaxException(f.collection().line(), f.collection().col(), e.getMessage());
        }
        List<Object> list = new ArrayList<>();
        Map<String, Object> map = new LinkedHashMap<>();
        for (Map.Entry<Object, Object> entry : entries) {
            Map<String, Object> names = new LinkedHashMap<>();
            if (f.keyVar() != null) {
                names.put(f.keyVar(), entry.getKey());
            }
            names.put(f.valueVar(), entry.getValue());
            HclScope inner = scope.with(names);
            if (f.cond() != null) {
                Object c = ev.eval(f.cond(), inner);
                try {
                    if (!HclValues.bool(c)) {
                        continue;
                    }
                } catch (ValueException e) {
                    throw new HclSyntaxException(f.cond().line(), f.cond().col(), e.getMessage());
                }
            }
            Object value = ev.eval(f.value(), inner);
            if (f.key() == null) {
                list.add(value);
                continue;
            }
            String key;
            try {
                key = HclValues.str(ev.eval(f.key(), inner));
            } catch (ValueException e) {
                throw new HclSyntaxException(f.key().line(), f.key().col(), "key: " + e.getMessage());
            }
            if (f.grouping()) {
                @SuppressWarnings("unchecked")
                List<Object> group = (List<Object>) map.computeIfAbsent(key, k -> new ArrayList<>());
                group.add(value);
            } else if (map.putIfAbsent(key, value) != null) {
                throw new HclSyntaxException(f.key().line(), f.key().col(), "duplicate key \"" + key
                        + "\" in the for expression (use ... after the value to group them)");
            }
        }
        if (f.key() == null) {
            return HclValues.listOf(list);
        }
        if (f.grouping()) {
            map.replaceAll((k, v) -> Collections.unmodifiableList((List<?>) v));
        }
        return HclValues.sortedMap(map);
    }
}
