package io.drover.core.spec.parse.tree;

import io.drover.core.spec.parse.hcl.HclAttribute;
import io.drover.core.spec.parse.hcl.HclBlock;
import io.drover.core.spec.parse.hcl.HclBody;
import io.drover.core.spec.parse.hcl.HclItem;
import io.drover.core.spec.parse.hcl.HclValue;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns an HCL body into a neutral tree: attributes and blocks become fields named as written (blocks keep
 * their labels, repeated blocks stay repeated fields), object literals become label-less mappings, and
 * attributes set to {@code null} are left out (HCL's "unset"). Pure.
 */
public final class HclTrees {
    private HclTrees() {}

    /** @param line the line of the body's block (1 for a file) */
    public static Node.Mapping of(HclBody body, List<String> labels, int line) {
        List<Field> fields = new ArrayList<>();
        for (HclItem item : body.items()) {
            if (item instanceof HclAttribute a) {
                if (!(a.value() instanceof HclValue.Null)) {
                    fields.add(Field.of(a.name(), node(a.value()), a.line()));
                }
            } else if (item instanceof HclBlock b) {
                fields.add(Field.of(b.type(), of(b.body(), b.labels(), b.line()), b.line()));
            }
        }
        return new Node.Mapping(labels, fields, line);
    }

    private static Node node(HclValue value) {
        if (value instanceof HclValue.Str s) {
            return new Node.Scalar(s.value(), s.line());
        } else if (value instanceof HclValue.Num n) {
            return new Node.Scalar(n.value(), n.line());
        } else if (value instanceof HclValue.Bool b) {
            return new Node.Scalar(b.value(), b.line());
        } else if (value instanceof HclValue.ListValue l) {
            return new Node.Sequence(l.items().stream().map(HclTrees::node).toList(), l.line());
        } else if (value instanceof HclValue.ObjectValue o) {
            List<Field> fields = new ArrayList<>();
            for (HclAttribute a : o.entries()) {
                if (!(a.value() instanceof HclValue.Null)) {
                    fields.add(Field.of(a.name(), node(a.value()), a.line()));
                }
            }
            return new Node.Mapping(List.of(), fields, o.line());
        }
        return new Node.Scalar(null, value.line());
    }
}
