/**
 * HCL v2's native syntax as Nomad's jobspec2 reads it, written here because hcl4j loses line numbers, merges
 * repeated labelled blocks and evaluates {@code ${...}}: {@link io.drover.core.spec.parse.hcl.HclParser}
 * (bodies, {@link io.drover.core.spec.parse.hcl.HclExprParser} expressions), then
 * {@link io.drover.core.spec.parse.hcl.HclEvaluation} (variables, locals, dynamic blocks,
 * {@link io.drover.core.spec.parse.hcl.HclEvaluator} with {@link io.drover.core.spec.parse.hcl.HclFunctions})
 * turns every expression into literals; run-time references stay {@code ${...}} text. {@link io.drover.core.spec.parse.hcl.HclParser#parse} gives an
 * {@link io.drover.core.spec.parse.hcl.HclBody} of {@link io.drover.core.spec.parse.hcl.HclAttribute}s and
 * {@link io.drover.core.spec.parse.hcl.HclBlock}s with literal {@link io.drover.core.spec.parse.hcl.HclValue}s,
 * each with its line; every syntax error is an {@link io.drover.core.spec.parse.hcl.HclSyntaxException} with the
 * line and "expected X, found Y".
 */
package io.drover.core.spec.parse.hcl;
