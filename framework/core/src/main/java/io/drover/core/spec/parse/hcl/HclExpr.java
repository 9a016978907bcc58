package io.drover.core.spec.parse.hcl;

import java.util.List;

/**
 * An HCL2 expression that is not a literal, as the parser reads it: evaluated by {@link HclEvaluator} with
 * the job file's variables and locals. Each node keeps the 1-based line and column where it starts.
 * Literals stay {@link HclValue}s, so a file without expressions parses exactly as before.
 */
public sealed interface HclExpr {
    int line();

    int col();

    /** A literal value inside an expression. */
    record Literal(HclValue value, int line, int col) implements HclExpr {}

    /** A quoted string or heredoc with {@code ${...}} or {@code %{...}}: parsed when evaluated. */
    record Template(String text, int line, int col, boolean heredoc) implements HclExpr {}

    /** A name: {@code var}, {@code local}, a for-expression's or a dynamic block's iterator, or {@code attr}. */
    record Ref(String name, int line, int col) implements HclExpr {}

    /** {@code target.name}. */
    record GetAttr(HclExpr target, String name, int line, int col) implements HclExpr {}

    /** {@code target[key]} (also the legacy {@code target.0}). */
    record Index(HclExpr target, HclExpr key, int line, int col) implements HclExpr {}

    /** {@code target[*].rest} or {@code target.*.rest}: {@code rest} applies to each element (a {@link Ref} to {@code "~"}). */
    record Splat(HclExpr target, HclExpr each, int line, int col) implements HclExpr {}

    /** {@code name(args...)}, {@code expandLast} for a final {@code ...}. */
    record Call(String name, List<HclExpr> args, boolean expandLast, int line, int col) implements HclExpr {
        public Call {
            args = List.copyOf(args);
        }
    }

    record Unary(String op, HclExpr operand, int line, int col) implements HclExpr {}

    record Binary(String op, HclExpr left, HclExpr right, int line, int col) implements HclExpr {}

    record Conditional(HclExpr cond, HclExpr then, HclExpr otherwise, int line, int col) implements HclExpr {}

    /** {@code [a, b]} with at least one non-literal element. */
    record Tuple(List<HclExpr> items, int line, int col) implements HclExpr {
        public Tuple {
            items = List.copyOf(items);
        }
    }

    /** {@code {k = v}} with at least one non-literal key or value; {@code keyLines} keeps each entry's line. */
    record ObjectCons(List<HclExpr> keys, List<HclExpr> values, int line, int col) implements HclExpr {
        public ObjectCons {
            keys = List.copyOf(keys);
            values = List.copyOf(values);
        }
    }

    /**
     * {@code [for k, v in coll : value if cond]} or {@code {for k, v in coll : key => value... if cond}};
     * {@code keyVar} null when only one name is given; {@code key} null for a list.
     */
    record For(String keyVar, String valueVar, HclExpr collection, HclExpr key, HclExpr value, HclExpr cond,
            boolean grouping, int line, int col) implements HclExpr {}
}
