package io.drover.core.spec.parse.hcl;

import java.util.List;

/**
 * A value with the 1-based line where it starts: a literal, or ({@link Expr}) an expression the parser keeps
 * for {@link HclEvaluator}, which turns every {@link Expr} into literals.
 */
public sealed interface HclValue {
    int line();

    /**
     * A quoted string or heredoc; {@code ${...}} and {@code %{...}} kept verbatim (a template: {@link HclEvaluator}
     * evaluates them).
     *
     * @param textLine the line where the text starts: a heredoc's is the line after its {@code <<} marker
     */
    record Str(String value, int line, int textLine) implements HclValue {
        public Str(String value, int line) {
            this(value, line, line);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Str s && s.value.equals(value) && s.line == line;
        }

        @Override
        public int hashCode() {
            return value.hashCode() * 31 + line;
        }
    }

    /** An integer ({@link Long}) or a number with a fraction or exponent ({@link Double}). */
    record Num(Number value, int line) implements HclValue {}

    record Bool(boolean value, int line) implements HclValue {}

    record Null(int line) implements HclValue {}

    record ListValue(List<HclValue> items, int line) implements HclValue {
        public ListValue {
            items = List.copyOf(items);
        }
    }

    /** An object literal; keys are unique (the parser refuses duplicates), entries in source order. */
    record ObjectValue(List<HclAttribute> entries, int line) implements HclValue {
        public ObjectValue {
            entries = List.copyOf(entries);
        }
    }

    /** An expression (references, operators, functions, templates...), not yet evaluated. */
    record Expr(HclExpr expr, int line) implements HclValue {}
}
