package io.drover.core.spec.parse.hcl;

import java.util.List;

/** A literal value with the 1-based line where it starts. Expressions other than literals are not supported. */
public sealed interface HclValue {
    int line();

    /** A quoted string or heredoc; {@code ${...}} and {@code %{...}} kept verbatim. */
    record Str(String value, int line) implements HclValue {}

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
}
