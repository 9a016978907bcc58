/**
 * A neutral tree of values with line numbers that both syntaxes (HCL and JSON) are turned into, so that one
 * mapper per file kind validates and builds the records: {@link io.drover.core.spec.parse.tree.Node},
 * {@link io.drover.core.spec.parse.tree.HclTrees}, {@link io.drover.core.spec.parse.tree.JsonTrees}, and the
 * typed, strict reader {@link io.drover.core.spec.parse.tree.MapReader}.
 */
package io.drover.core.spec.parse.tree;
