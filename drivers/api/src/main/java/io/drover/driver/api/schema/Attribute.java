package io.drover.driver.api.schema;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An attribute of a config block: {@code name = value}. Immutable; build one with the factories and the
 * {@code asRequired()}/{@code withDefault}/{@code allowed}/{@code describe} copies:
 * <pre>{@code Attribute.duration("interval").withDefault("10s").describe("time between two probes")}</pre>
 *
 * <p>Maps onto Nomad's {@code hclspec.Attr{name, type = type.hclType(), required}}; with a default onto
 * {@code hclspec.Default{primary = Attr, default = Literal{value = defaultLiteral()}}}. Allowed values have no
 * hclspec counterpart: Drover checks them (a driver served to Nomad checks them again when it reads its config).
 *
 * @param name the key
 * @param type what the value must be, and what it is converted to
 * @param required whether the key must be set (a required key has no default)
 * @param defaultValue the value when the key is absent, written as in a config block ({@code "10s"}, {@code 3},
 *     {@code true}, a {@code List}/{@code Map} of strings); null for none
 * @param allowed when not empty, the value (converted, then as text) must be one of these
 * @param description one sentence for the user; may be empty
 */
public record Attribute(String name, ValueType type, boolean required, Object defaultValue, List<String> allowed,
        String description) implements SchemaKey {

    public Attribute {
        SchemaKey.checkName(name);
        if (type == null) {
            throw new IllegalArgumentException("attribute \"" + name + "\" has no type");
        }
        allowed = List.copyOf(allowed == null ? List.of() : allowed);
        description = description == null ? "" : description;
        if (defaultValue != null) {
            if (required) {
                throw new IllegalArgumentException("attribute \"" + name + "\" is required and has a default");
            }
            List<io.drover.driver.api.ConfigProblem> problems = new ArrayList<>();
            Object converted = Conversions.convert(type, defaultValue, name, problems, false);
            if (!problems.isEmpty()) {
                throw new IllegalArgumentException("default of attribute \"" + name + "\": "
                        + problems.get(0).message());
            }
            if (!allowed.isEmpty() && !allowed.contains(Conversions.text(converted))) {
                throw new IllegalArgumentException("default of attribute \"" + name + "\" is not an allowed value");
            }
        }
    }

    public static Attribute string(String name) {
        return of(name, ValueType.STRING);
    }

    public static Attribute bool(String name) {
        return of(name, ValueType.BOOL);
    }

    public static Attribute integer(String name) {
        return of(name, ValueType.INT);
    }

    public static Attribute number(String name) {
        return of(name, ValueType.NUMBER);
    }

    public static Attribute duration(String name) {
        return of(name, ValueType.DURATION);
    }

    public static Attribute stringList(String name) {
        return of(name, ValueType.LIST_STRING);
    }

    public static Attribute stringMap(String name) {
        return of(name, ValueType.MAP_STRING);
    }

    /** A key of any value, taken as written ({@link ValueType#ANY}). */
    public static Attribute any(String name) {
        return of(name, ValueType.ANY);
    }

    public static Attribute of(String name, ValueType type) {
        return new Attribute(name, type, false, null, List.of(), "");
    }

    /** A copy that must be set. */
    public Attribute asRequired() {
        return new Attribute(name, type, true, null, allowed, description);
    }

    /** A copy with a default, written as in a config block ({@code "10s"}, {@code 200}, {@code true}). */
    public Attribute withDefault(Object value) {
        return new Attribute(name, type, false, value, allowed, description);
    }

    /** A copy whose value must be one of these (compared as text after conversion: {@code "200"} for 200). */
    public Attribute allowed(String... values) {
        return new Attribute(name, type, required, defaultValue, Arrays.asList(values), description);
    }

    /** A copy with a description. */
    public Attribute describe(String text) {
        return new Attribute(name, type, required, defaultValue, allowed, text);
    }

    /** The default converted to its Java type ({@link ValueType}); null when there is none. */
    public Object convertedDefault() {
        return defaultValue == null ? null : Conversions.convert(type, defaultValue, name, new ArrayList<>(), false);
    }

    /** The default as an HCL expression, the {@code value} of an {@code hclspec.Literal}: {@code "10s"}, {@code 3}. */
    public String defaultLiteral() {
        return defaultValue == null ? null : Conversions.literal(defaultValue);
    }

    @Override
    public String hclspec() {
        String attr = "Attr {\n  name = \"" + name + "\"\n  type = \"" + type.hclType() + "\"\n  required = "
                + required + "\n}";
        if (defaultValue == null) {
            return attr;
        }
        return "Default {\n" + indent(attr) + "\n  Literal {\n    value = " + Conversions.quote(defaultLiteral())
                + "\n  }\n}";
    }

    static String indent(String text) {
        return "  " + text.replace("\n", "\n  ");
    }
}
