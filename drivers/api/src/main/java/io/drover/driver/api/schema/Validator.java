package io.drover.driver.api.schema;

import io.drover.driver.api.ConfigProblem;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Checks a raw config block against a schema, collecting every problem (see {@link ConfigSchema}). Pure. */
final class Validator {
    private Validator() {}

    static ConfigValidation validate(ConfigSchema schema, Map<String, ?> config, String owner, boolean defer) {
        List<ConfigProblem> problems = new ArrayList<>();
        ConfigView view = block(schema, config == null ? Map.of() : config, "", owner, defer, problems);
        problems.sort(Comparator.comparing(ConfigProblem::key));
        return new ConfigValidation(problems, problems.isEmpty() && !defer ? view : null);
    }

    private static ConfigView block(ConfigSchema schema, Map<String, ?> config, String prefix, String owner,
            boolean defer, List<ConfigProblem> problems) {
        // unsorted: the problems are sorted by path at the end (validate), and this runs at every task start
        for (String key : config.keySet()) {
            if (schema.key(key).isEmpty()) {
                problems.add(new ConfigProblem(prefix + key, (owner.isEmpty() ? "unknown key" : "unknown key for " + owner)
                        + (schema.keys().isEmpty() ? " (this block takes no keys)"
                                : " (allowed: " + String.join(", ", schema.names()) + ")")));
            }
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (SchemaKey key : schema.keys()) {
            String path = prefix + key.name();
            Object raw = config.get(key.name());
            Object value;
            if (key instanceof Attribute a) {
                value = attribute(a, raw, path, defer, problems);
            } else if (key instanceof Block b) {
                value = single(b, raw, path, defer, problems);
            } else {
                value = repeated((BlockList) key, raw, path, defer, problems);
            }
            if (value != null) {
                values.put(key.name(), value);
            }
        }
        return new ConfigView(schema, values);
    }

    private static Object attribute(Attribute a, Object raw, String path, boolean defer,
            List<ConfigProblem> problems) {
        if (raw == null) {
            if (a.required()) {
                problems.add(new ConfigProblem(path, "is required"));
            }
            return a.convertedDefault();
        }
        Object value = Conversions.convert(a.type(), raw, path, problems, defer);
        if (value != null && !a.allowed().isEmpty() && !(defer && value instanceof String s && s.contains("${"))
                && !a.allowed().contains(Conversions.text(value))) {
            List<String> quoted = a.allowed().stream().map(Conversions::quote).toList();
            problems.add(new ConfigProblem(path, "must be one of " + String.join(", ", quoted) + ", found "
                    + Conversions.shown(raw)));
        }
        return value;
    }

    private static ConfigView single(Block b, Object raw, String path, boolean defer, List<ConfigProblem> problems) {
        if (raw instanceof List<?> list && list.size() == 1) {
            raw = list.get(0);
        }
        if (raw == null) {
            if (b.required()) {
                problems.add(new ConfigProblem(path, "is required (a " + b.name() + " { ... } block)"));
            }
            return null;
        }
        if (raw instanceof List<?> list) {
            problems.add(new ConfigProblem(path, "must be a single block, got " + list.size()));
            return null;
        }
        if (!(raw instanceof Map<?, ?> map)) {
            problems.add(new ConfigProblem(path, "must be a block " + b.name() + " { ... }, found "
                    + Conversions.shown(raw)));
            return null;
        }
        return block(b.nested(), keyed(map), path + ".", "", defer, problems);
    }

    private static List<ConfigView> repeated(BlockList b, Object raw, String path, boolean defer,
            List<ConfigProblem> problems) {
        List<?> items = raw == null ? List.of() : raw instanceof List<?> l ? l : List.of(raw);
        List<ConfigView> views = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i) instanceof Map<?, ?> map) {
                views.add(block(b.nested(), keyed(map), path + "[" + i + "].", "", defer, problems));
            } else {
                problems.add(new ConfigProblem(path + "[" + i + "]", "must be a block " + b.name() + " { ... }, found "
                        + Conversions.shown(items.get(i))));
            }
        }
        if (items.size() < b.minItems()) {
            problems.add(new ConfigProblem(path, "needs at least " + b.minItems() + " block(s), got " + items.size()));
        }
        if (b.maxItems() > 0 && items.size() > b.maxItems()) {
            problems.add(new ConfigProblem(path, "takes at most " + b.maxItems() + " block(s), got " + items.size()));
        }
        return List.copyOf(views);
    }

    private static Map<String, Object> keyed(Map<?, ?> map) {
        Map<String, Object> out = new LinkedHashMap<>();
        map.forEach((k, v) -> out.put(String.valueOf(k), v));
        return out;
    }
}
