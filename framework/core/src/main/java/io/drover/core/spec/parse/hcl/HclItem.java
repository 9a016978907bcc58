package io.drover.core.spec.parse.hcl;

/** One item of an {@link HclBody}: an attribute or a block. */
public sealed interface HclItem permits HclAttribute, HclBlock {
    /** 1-based line where the item starts. */
    int line();
}
