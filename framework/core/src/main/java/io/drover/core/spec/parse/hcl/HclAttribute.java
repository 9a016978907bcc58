package io.drover.core.spec.parse.hcl;

/**
 * {@code name = value} in a body, or {@code name = value} / {@code name: value} in an object literal.
 *
 * @param line 1-based line of the name
 */
public record HclAttribute(String name, HclValue value, int line) implements HclItem {}
