package io.drover.core.spec.parse.hcl;

import java.util.List;

/**
 * {@code type "label" ... { body }}. Repeated blocks stay separate nodes, never merged.
 *
 * @param labels the labels in order (quoted or bare), possibly none
 * @param line 1-based line of the block type
 */
public record HclBlock(String type, List<String> labels, HclBody body, int line) implements HclItem {
    public HclBlock {
        labels = List.copyOf(labels);
    }
}
