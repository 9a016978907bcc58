package io.drover.core.spec.parse.hcl;

import java.util.List;

/**
 * The content of a file or of a block: attributes and blocks in source order. Attribute names are unique
 * within a body (the parser refuses duplicates); block types may repeat.
 */
public record HclBody(List<HclItem> items) {
    public HclBody {
        items = List.copyOf(items);
    }

    public List<HclAttribute> attributes() {
        return items.stream().filter(HclAttribute.class::isInstance).map(HclAttribute.class::cast).toList();
    }

    public List<HclBlock> blocks() {
        return items.stream().filter(HclBlock.class::isInstance).map(HclBlock.class::cast).toList();
    }
}
