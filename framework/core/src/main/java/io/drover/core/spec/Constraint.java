package io.drover.core.spec;

import java.util.List;

/**
 * One {@code constraint} of a job, group or task, as Nomad's {@code Constraint}: {@code attribute} (LTarget),
 * {@code operator} (Operand), {@code value} (RTarget). Immutable.
 *
 * @param group the group it applies to, null for a job-level constraint (every group)
 * @param task the task it was written in (it applies to the task's group), null when none
 * @param line where it was written (0 when unknown)
 */
public record Constraint(String group, String task, String lTarget, String operand, String rTarget, int line) {
    /** Nomad's operators. */
    public static final List<String> OPERATORS = List.of("=", "==", "is", "!=", "not", ">", ">=", "<", "<=",
            "regexp", "set_contains", "set_contains_all", "set_contains_any", "version", "semver", "is_set",
            "is_not_set", "distinct_hosts", "distinct_property");

    /** As Nomad prints it in placement failures: {@code ${attr.kernel.name} = linux}. */
    @Override
    public String toString() {
        return (lTarget + " " + operand + " " + rTarget).trim();
    }

    /** Whether it applies to an allocation of {@code groupName}. */
    public boolean appliesTo(String groupName) {
        return group == null || group.equals(groupName);
    }
}
