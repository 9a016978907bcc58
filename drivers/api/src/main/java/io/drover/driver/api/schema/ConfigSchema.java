package io.drover.driver.api.schema;

import io.drover.driver.api.ConfigProblem;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The declared shape of a config block (a task's {@code config { ... }} or an agent's
 * {@code plugin "<name>" { config { ... } }}): its keys, in order. Immutable and thread-safe; build it once, in a
 * constant:
 * <pre>{@code
 * static final ConfigSchema SCHEMA = ConfigSchema.of(
 *         Attribute.string("url").asRequired().describe("the URL to probe"),
 *         Attribute.duration("interval").withDefault("10s"),
 *         Attribute.integer("expect_status").withDefault(200));
 * }</pre>
 *
 * <h2>Validation</h2>
 * {@link #validate} reports every problem of a block at once, each with its key path ({@code args[2]},
 * {@code mount[0].source}, {@code env.PATH}), sorted by path: unknown keys, missing required keys, values that do
 * not convert to their type, values not allowed, block counts. Values convert as HCL2 converts them: a quoted
 * number or bool is accepted for a number or bool, a number or bool for a string. A nested block arrives as a map,
 * a repeated one as a list of maps (what the job file parser yields); a single block written as a one-element
 * list is accepted. A {@code null} value reads as absent.
 *
 * <h2>Nomad's hclspec, one to one</h2>
 * A schema is an {@code hclspec.Object} whose {@code attributes} map each key's name to its spec:
 * <table>
 * <caption>ConfigSchema to hcl_spec.proto</caption>
 * <tr><th>Drover</th><th>hclspec</th></tr>
 * <tr><td>{@link ConfigSchema}</td><td>{@code Object{attributes}}</td></tr>
 * <tr><td>{@link Attribute}</td><td>{@code Attr{name, type = ValueType.hclType(), required}}</td></tr>
 * <tr><td>{@link Attribute} with a default</td><td>{@code Default{primary = Attr, default = Literal{value}}}</td></tr>
 * <tr><td>{@link Block}</td><td>{@code Block{name, required, nested = Object}}</td></tr>
 * <tr><td>{@link BlockList}</td><td>{@code BlockList{name, min_items, max_items, nested = Object}}</td></tr>
 * </table>
 * {@link #hclspec()} writes that spec in the HCL syntax of {@code hcl_spec.proto}'s documentation. Drover adds two
 * checks hclspec cannot state: {@link ValueType#INT} (whole) and {@link ValueType#DURATION} (Go syntax), both
 * {@code number}/{@code string} in hclspec, and {@link Attribute#allowed()}.
 *
 * @param keys the keys, in declaration order; names are unique
 */
public record ConfigSchema(List<SchemaKey> keys) {
    /** A block that takes no keys. */
    public static final ConfigSchema EMPTY = new ConfigSchema(List.of());

    public ConfigSchema {
        keys = List.copyOf(keys);
        Set<String> names = new HashSet<>();
        for (SchemaKey k : keys) {
            if (!names.add(k.name())) {
                throw new IllegalArgumentException("config key \"" + k.name() + "\" is declared twice");
            }
        }
    }

    public static ConfigSchema of(SchemaKey... keys) {
        return new ConfigSchema(List.of(keys));
    }

    /**
     * The key of that name. A plain loop, no stream: validation looks up every key of a task's config at each
     * task start, and a schema has a handful of keys (docs/performance.md, "Issue 18, item 4").
     */
    public Optional<SchemaKey> key(String name) {
        for (SchemaKey k : keys) {
            if (k.name().equals(name)) {
                return Optional.of(k);
            }
        }
        return Optional.empty();
    }

    /** The key names, in order. */
    public List<String> names() {
        return keys.stream().map(SchemaKey::name).toList();
    }

    /**
     * Checks and converts a config block (strictly: the values the task starts with). Pure; any thread.
     *
     * @param config the raw block: String, Long, Double, Boolean, List and Map values
     * @return every problem, and the typed view (defaults applied) when there is none
     */
    public ConfigValidation validate(Map<String, ?> config) {
        return Validator.validate(this, config, "", false);
    }

    /**
     * As {@link #validate}, with the unknown-key message naming the owner: {@code "unknown key for the java driver"}.
     *
     * @param owner e.g. {@code "the java driver"}
     */
    public ConfigValidation validate(Map<String, ?> config, String owner) {
        return Validator.validate(this, config, owner, false);
    }

    /**
     * As {@link #validate}, for a check before the task's {@code ${...}} references are interpolated (a job
     * submission): a string holding {@code ${} is accepted for any scalar key, since its value is known only at
     * start, where {@link #view} converts it.
     */
    public ConfigValidation check(Map<String, ?> config) {
        return Validator.validate(this, config, "", true);
    }

    /**
     * As {@link #check}, with the unknown-key message naming the owner: {@code "unknown key for the mock driver"}.
     *
     * @param owner e.g. {@code "the mock driver"}
     */
    public ConfigValidation check(Map<String, ?> config, String owner) {
        return Validator.validate(this, config, owner, true);
    }

    /**
     * The typed view of a valid block: what a driver's {@code start} or {@code init} reads.
     *
     * @throws InvalidConfigException listing every problem when the block is not valid
     */
    public ConfigView view(Map<String, ?> config) {
        ConfigValidation v = validate(config);
        if (!v.valid()) {
            throw new InvalidConfigException(v.problems());
        }
        return v.view();
    }

    /** This schema as Nomad's {@code hclspec.Object}, in hcl_spec.proto's documented HCL syntax. */
    public String hclspec() {
        if (keys.isEmpty()) {
            return "Object {}";
        }
        StringBuilder sb = new StringBuilder("Object {\n");
        for (SchemaKey k : keys) {
            sb.append("  attributes \"").append(k.name()).append("\" {\n")
                    .append(Attribute.indent(Attribute.indent(k.hclspec()))).append("\n  }\n");
        }
        return sb.append('}').toString();
    }

    /**
     * The schema as plain values for JSON ({@code GET /v1/plugins}): one map per key with {@code name},
     * {@code kind} ({@code attribute}, {@code block}, {@code block_list}), {@code description}, and for an
     * attribute {@code type}, {@code required}, {@code default} (HCL text, absent when none), {@code allowed};
     * for a block {@code required} or {@code min_items}/{@code max_items}, and {@code keys}.
     */
    public List<Map<String, Object>> describe() {
        List<Map<String, Object>> out = new ArrayList<>();
        for (SchemaKey k : keys) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", k.name());
            if (k instanceof Attribute a) {
                m.put("kind", "attribute");
                m.put("type", a.type().displayName());
                m.put("required", a.required());
                if (a.defaultValue() != null) {
                    m.put("default", a.defaultLiteral());
                }
                m.put("allowed", a.allowed());
            } else if (k instanceof Block b) {
                m.put("kind", "block");
                m.put("required", b.required());
                m.put("keys", b.nested().describe());
            } else if (k instanceof BlockList b) {
                m.put("kind", "block_list");
                m.put("min_items", b.minItems());
                m.put("max_items", b.maxItems());
                m.put("keys", b.nested().describe());
            }
            m.put("description", k.description());
            out.add(m);
        }
        return out;
    }

    /**
     * One line per key, indented for nested blocks, for {@code drover plugin status -verbose}:
     * {@code interval  duration, default "10s"  time between two probes}.
     */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        lines(out, "");
        return out;
    }

    private void lines(List<String> out, String indent) {
        for (SchemaKey k : keys) {
            StringBuilder sb = new StringBuilder(indent).append(k.name()).append("  ");
            if (k instanceof Attribute a) {
                sb.append(a.type().displayName());
                if (a.required()) {
                    sb.append(", required");
                }
                if (a.defaultValue() != null) {
                    sb.append(", default ").append(a.defaultLiteral());
                }
                if (!a.allowed().isEmpty()) {
                    sb.append(", one of ").append(String.join("|", a.allowed()));
                }
            } else if (k instanceof Block b) {
                sb.append(b.required() ? "block, required" : "block");
            } else if (k instanceof BlockList b) {
                sb.append("blocks").append(b.minItems() > 0 ? ", at least " + b.minItems() : "")
                        .append(b.maxItems() > 0 ? ", at most " + b.maxItems() : "");
            }
            if (!k.description().isEmpty()) {
                sb.append("  ").append(k.description());
            }
            out.add(sb.toString());
            if (k instanceof Block b) {
                b.nested().lines(out, indent + "  ");
            } else if (k instanceof BlockList b) {
                b.nested().lines(out, indent + "  ");
            }
        }
    }

    @Override
    public String toString() {
        return hclspec();
    }
}
