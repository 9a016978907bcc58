/**
 * A small, strict parser of HCL v2's native syntax, written because hcl4j loses line numbers, merges repeated
 * labelled blocks and evaluates {@code ${...}}. {@link io.drover.core.spec.parse.hcl.HclParser#parse} gives an
 * {@link io.drover.core.spec.parse.hcl.HclBody} of {@link io.drover.core.spec.parse.hcl.HclAttribute}s and
 * {@link io.drover.core.spec.parse.hcl.HclBlock}s with literal {@link io.drover.core.spec.parse.hcl.HclValue}s,
 * each with its line; every syntax error is an {@link io.drover.core.spec.parse.hcl.HclSyntaxException} with the
 * line and "expected X, found Y". Not supported: expressions, variables, functions, for-expressions.
 */
package io.drover.core.spec.parse.hcl;
