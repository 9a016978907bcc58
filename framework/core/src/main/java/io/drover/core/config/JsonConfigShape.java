package io.drover.core.config;

import io.drover.core.spec.parse.tree.Field;
import io.drover.core.spec.parse.tree.Node;
import io.drover.core.spec.parse.tree.TreeProblem;
import java.util.ArrayList;
import java.util.List;

/**
 * Reshapes a JSON agent config (Nomad's JSON config: HCL keys, labelled blocks as objects keyed by label)
 * into the HCL shape: {@code "plugin": {"raw_exec": {...}}} and {@code "plugin": [{"raw_exec": {...}}]}
 * become repeated {@code plugin "raw_exec"} blocks. Everything else is kept as is. Pure.
 */
final class JsonConfigShape {
    private JsonConfigShape() {}

    static Node.Mapping toConfigTree(Node.Mapping root) throws TreeProblem {
        List<Field> fields = new ArrayList<>();
        for (Field f : root.fields()) {
            if (!"plugin".equals(f.key())) {
                fields.add(f);
            } else if (f.value() instanceof Node.Mapping byName) {
                fields.addAll(plugins(byName));
            } else if (f.value() instanceof Node.Sequence list) {
                for (Node item : list.items()) {
                    if (!(item instanceof Node.Mapping byName)) {
                        throw new TreeProblem(item.line(), "plugin", "must be an object of plugins by name, found "
                                + item.describe());
                    }
                    fields.addAll(plugins(byName));
                }
            } else {
                throw new TreeProblem(f.line(), "plugin", "must be an object of plugins by name, found "
                        + f.value().describe());
            }
        }
        return new Node.Mapping(root.labels(), fields, root.line());
    }

    private static List<Field> plugins(Node.Mapping byName) throws TreeProblem {
        List<Field> out = new ArrayList<>();
        for (Field p : byName.fields()) {
            if (!(p.value() instanceof Node.Mapping body)) {
                throw new TreeProblem(p.line(), "plugin \"" + p.name() + "\"", "must be an object, found "
                        + p.value().describe());
            }
            out.add(Field.of("plugin", new Node.Mapping(List.of(p.name()), body.fields(), p.line()), p.line()));
        }
        return out;
    }
}
