package io.drover.driver.api.schema;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A valid config block, converted to the Java types of its {@link ConfigSchema} with defaults applied: what a
 * driver reads instead of the raw map. Immutable and thread-safe.
 *
 * <p>A getter for a key that is neither set nor defaulted returns the type's empty value ({@code ""},
 * {@code false}, {@code 0}, {@link Duration#ZERO}, an empty list or map); {@link #isSet} tells them apart.
 * Asking for a key the schema does not declare, or with the getter of another type, is a programming error:
 * {@link IllegalArgumentException}.
 */
public final class ConfigView {
    private final ConfigSchema schema;
    private final Map<String, Object> values;

    ConfigView(ConfigSchema schema, Map<String, Object> values) {
        this.schema = schema;
        this.values = Map.copyOf(values);
    }

    /** The schema this block was read with. */
    public ConfigSchema schema() {
        return schema;
    }

    /** Whether the key was written in the block or has a default. */
    public boolean isSet(String name) {
        declared(name);
        return values.containsKey(name);
    }

    public String string(String name) {
        return (String) get(name, ValueType.STRING, "");
    }

    public boolean bool(String name) {
        return (Boolean) get(name, ValueType.BOOL, Boolean.FALSE);
    }

    public long integer(String name) {
        return (Long) get(name, ValueType.INT, 0L);
    }

    public double number(String name) {
        return (Double) get(name, ValueType.NUMBER, 0.0);
    }

    public Duration duration(String name) {
        return (Duration) get(name, ValueType.DURATION, Duration.ZERO);
    }

    @SuppressWarnings("unchecked")
    public List<String> stringList(String name) {
        return (List<String>) get(name, ValueType.LIST_STRING, List.of());
    }

    @SuppressWarnings("unchecked")
    public Map<String, String> stringMap(String name) {
        return (Map<String, String>) get(name, ValueType.MAP_STRING, Map.of());
    }

    /** An {@link ValueType#ANY} value as written; null when not set. */
    public Object any(String name) {
        return get(name, ValueType.ANY, null);
    }

    /** A single nested block, empty when not written. */
    public Optional<ConfigView> block(String name) {
        if (!(declared(name) instanceof Block)) {
            throw new IllegalArgumentException("config key \"" + name + "\" is not a block");
        }
        return Optional.ofNullable((ConfigView) values.get(name));
    }

    /** The blocks of a repeated nested block, in order; empty when none was written. */
    @SuppressWarnings("unchecked")
    public List<ConfigView> blocks(String name) {
        if (!(declared(name) instanceof BlockList)) {
            throw new IllegalArgumentException("config key \"" + name + "\" is not a block list");
        }
        return (List<ConfigView>) values.getOrDefault(name, List.of());
    }

    /**
     * The block as plain converted values: String, Boolean, Long, Double, Duration, List, Map; a block as a Map,
     * a block list as a List of Maps. Keys that are neither set nor defaulted are absent.
     */
    public Map<String, Object> asMap() {
        Map<String, Object> out = new LinkedHashMap<>();
        values.forEach((k, v) -> {
            if (v instanceof ConfigView view) {
                out.put(k, view.asMap());
            } else if (schema.key(k).orElseThrow() instanceof BlockList) {
                out.put(k, ((List<?>) v).stream().map(b -> ((ConfigView) b).asMap()).toList());
            } else {
                out.put(k, v);
            }
        });
        return out;
    }

    private SchemaKey declared(String name) {
        return schema.key(name).orElseThrow(() -> new IllegalArgumentException(
                "config key \"" + name + "\" is not in the schema " + schema.names()));
    }

    private Object get(String name, ValueType type, Object empty) {
        if (!(declared(name) instanceof Attribute a) || a.type() != type) {
            throw new IllegalArgumentException("config key \"" + name + "\" is not of type " + type.displayName());
        }
        return values.getOrDefault(name, empty);
    }

    @Override
    public String toString() {
        return asMap().toString();
    }
}
