package io.drover.driver.api.schema;

/**
 * A repeated nested block: {@code name { ... }} any number of times, between {@code minItems} and {@code maxItems}
 * (0: no bound). Immutable. Maps onto Nomad's
 * {@code hclspec.BlockList{name, min_items, max_items, nested = nested.hclspec()}}.
 *
 * @param name the block's type name
 * @param nested the keys inside each block
 * @param minItems the fewest blocks allowed; 0 for none
 * @param maxItems the most blocks allowed; 0 for no bound
 * @param description one sentence for the user; may be empty
 */
public record BlockList(String name, ConfigSchema nested, int minItems, int maxItems, String description)
        implements SchemaKey {
    public BlockList {
        SchemaKey.checkName(name);
        if (nested == null) {
            throw new IllegalArgumentException("block list \"" + name + "\" has no nested schema");
        }
        if (minItems < 0 || maxItems < 0 || (maxItems > 0 && maxItems < minItems)) {
            throw new IllegalArgumentException("block list \"" + name + "\": bad item bounds");
        }
        description = description == null ? "" : description;
    }

    public static BlockList of(String name, SchemaKey... keys) {
        return new BlockList(name, ConfigSchema.of(keys), 0, 0, "");
    }

    /** A copy with item bounds (0: no bound). */
    public BlockList items(int min, int max) {
        return new BlockList(name, nested, min, max, description);
    }

    /** A copy with a description. */
    public BlockList describe(String text) {
        return new BlockList(name, nested, minItems, maxItems, text);
    }

    @Override
    public String hclspec() {
        return "BlockList {\n  name = \"" + name + "\"\n  min_items = " + minItems + "\n  max_items = " + maxItems
                + "\n" + Attribute.indent(nested.hclspec()) + "\n}";
    }
}
