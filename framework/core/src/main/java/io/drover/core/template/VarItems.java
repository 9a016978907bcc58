package io.drover.core.template;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What {@code nomadVar} gives a template, as consul-template's {@code NomadVarItems}: a map of the variable's items
 * (index by key, {@code .key}, range in key order, len), with its methods as fields that win over an item of the
 * same name, as Go's method lookup does: {@code .Keys}, {@code .Values}, {@code .Tuples} (each {@code Key},
 * {@code Value}), {@code .Metadata} ({@code Namespace}, {@code Path}, the indexes and times) and {@code .Parent}
 * (the metadata and {@code Items}). Immutable.
 */
public final class VarItems extends AbstractMap<String, Object> {
    private static final Set<String> METHODS = Set.of("Keys", "Values", "Tuples", "Metadata", "Parent");
    private final Map<String, Object> items;
    private final Map<String, Object> metadata;

    public VarItems(Map<String, String> items, Map<String, Object> metadata) {
        this.items = java.util.Collections.unmodifiableMap(new TreeMap<>(items));
        this.metadata = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        return items.entrySet();
    }

    @Override
    public boolean containsKey(Object key) {
        return METHODS.contains(key) || items.containsKey(key);
    }

    @Override
    public Object get(Object key) {
        if (key instanceof String k && METHODS.contains(k)) {
            return switch (k) {
                case "Keys" -> List.copyOf(items.keySet());
                case "Values" -> List.copyOf(items.values());
                case "Tuples" -> {
                    List<Object> out = new ArrayList<>();
                    items.forEach((ik, v) -> {
                        Map<String, Object> t = new LinkedHashMap<>();
                        t.put("Key", ik);
                        t.put("Value", v);
                        out.add(t);
                    });
                    yield out;
                }
                case "Metadata" -> metadata;
                default -> {
                    Map<String, Object> p = new LinkedHashMap<>(metadata);
                    p.put("Items", items);
                    yield p;
                }
            };
        }
        return items.get(key);
    }

    @Override
    public String toString() {
        return metadata + " " + items;
    }
}
