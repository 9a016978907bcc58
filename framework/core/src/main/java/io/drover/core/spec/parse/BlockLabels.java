package io.drover.core.spec.parse;

import io.drover.core.spec.SafeName;
import io.drover.core.spec.parse.tree.Field;
import io.drover.core.spec.parse.tree.MapReader;
import io.drover.core.spec.parse.tree.Node;
import io.drover.core.spec.parse.tree.TreeProblem;

/** The labels of the job's, groups' and tasks' blocks: read, and checked as safe names. Pure. */
final class BlockLabels {
    private BlockLabels() {}

    /** The single label of a block, null when it has none or several (that problem is reported elsewhere). */
    static String labelOf(Field field) {
        return field.value() instanceof Node.Mapping m && m.labels().size() == 1 ? m.labels().get(0) : null;
    }

    /** Refuses a job id, group or task name that is not one safe path component ({@link SafeName}). */
    static Void safeName(Field field, String path, String what, String name) throws TreeProblem {
        java.util.Optional<String> problem = SafeName.problem(name);
        if (problem.isPresent()) {
            throw new TreeProblem(field.line(), path, what + " " + problem.get());
        }
        return null;
    }

    /** The single, non-empty label of a block, else a problem. */
    static String label(Field field, String kind, String what, String parentPath) throws TreeProblem {
        String key = MapReader.join(parentPath, kind);
        if (!(field.value() instanceof Node.Mapping m)) {
            throw new TreeProblem(field.line(), key, "must be a block: " + kind + " \"<name>\" { ... }");
        }
        if (m.labels().size() != 1) {
            throw new TreeProblem(field.line(), key, kind + " takes exactly one label, " + what + ": " + kind
                    + " \"<name>\" { ... }");
        }
        return m.labels().get(0);
    }
}
