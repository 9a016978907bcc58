package io.drover.driver.api.schema;

/**
 * One key of a {@link ConfigSchema}: an attribute ({@code name = value}), a single nested block
 * ({@code name { ... }}) or a repeated one. Immutable values; each maps onto one Nomad {@code hclspec} spec
 * ({@link #hclspec()}).
 */
public sealed interface SchemaKey permits Attribute, Block, BlockList {
    /** The key as written in the config block; a valid HCL identifier. */
    String name();

    /** One sentence for the user (shown by {@code drover plugin status -verbose}); may be empty. */
    String description();

    /**
     * This key as Nomad's {@code hclspec}, in the HCL syntax of {@code hcl_spec.proto}'s documentation (the
     * message names, fields and nesting of the proto): {@code Attr}, {@code Default}+{@code Literal},
     * {@code Block}, {@code BlockList}.
     */
    String hclspec();

    /** Checks a key name: a non-empty HCL identifier (letters, digits, {@code _}, {@code -}; no leading digit). */
    static String checkName(String name) {
        if (name == null || name.isEmpty() || !name.matches("[A-Za-z_][A-Za-z0-9_-]*")) {
            throw new IllegalArgumentException("not a config key name: \"" + name + "\"");
        }
        return name;
    }
}
