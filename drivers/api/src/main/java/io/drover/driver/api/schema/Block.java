package io.drover.driver.api.schema;

/**
 * A single nested block: {@code name { ... }}, at most once (exactly once when required). Immutable.
 * Maps onto Nomad's {@code hclspec.Block{name, required, nested = nested.hclspec()}}.
 *
 * @param name the block's type name
 * @param nested the keys inside the block
 * @param required whether the block must be written
 * @param description one sentence for the user; may be empty
 */
public record Block(String name, ConfigSchema nested, boolean required, String description) implements SchemaKey {
    public Block {
        SchemaKey.checkName(name);
        if (nested == null) {
            throw new IllegalArgumentException("block \"" + name + "\" has no nested schema");
        }
        description = description == null ? "" : description;
    }

    public static Block of(String name, SchemaKey... keys) {
        return new Block(name, ConfigSchema.of(keys), false, "");
    }

    /** A copy that must be written. */
    public Block asRequired() {
        return new Block(name, nested, true, description);
    }

    /** A copy with a description. */
    public Block describe(String text) {
        return new Block(name, nested, required, text);
    }

    @Override
    public String hclspec() {
        return "Block {\n  name = \"" + name + "\"\n  required = " + required + "\n" + Attribute.indent(nested.hclspec())
                + "\n}";
    }
}
