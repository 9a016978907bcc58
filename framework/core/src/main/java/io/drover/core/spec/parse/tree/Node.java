package io.drover.core.spec.parse.tree;

import java.util.List;

/** A value in a neutral tree, with the 1-based line where it starts. */
public sealed interface Node {
    int line();

    /** What the node is, for messages: {@code a string}, {@code a list}, ... */
    String describe();

    /** A String, Long, Double or Boolean; null only as a list element (null attributes are left out). */
    record Scalar(Object value, int line) implements Node {
        @Override
        public String describe() {
            if (value instanceof String) {
                return "a string";
            } else if (value instanceof Boolean) {
                return "a bool";
            } else if (value instanceof Long) {
                return "an integer";
            } else if (value instanceof Double) {
                return "a number";
            }
            return "null";
        }
    }

    record Sequence(List<Node> items, int line) implements Node {
        public Sequence {
            items = List.copyOf(items);
        }

        @Override
        public String describe() {
            return "a list";
        }
    }

    /**
     * A block or an object: fields in source order (keys may repeat: repeated blocks) and, for a block, its
     * labels ({@code group "web"} has the label {@code web}).
     */
    record Mapping(List<String> labels, List<Field> fields, int line) implements Node {
        public Mapping {
            labels = List.copyOf(labels);
            fields = List.copyOf(fields);
        }

        @Override
        public String describe() {
            return labels.isEmpty() ? "an object" : "a labelled block";
        }
    }
}
