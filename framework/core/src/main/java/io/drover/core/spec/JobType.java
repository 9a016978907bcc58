package io.drover.core.spec;

import java.util.Arrays;
import java.util.Optional;

/** Nomad's job types that Drover runs. */
public enum JobType {
    BATCH("batch"),
    SERVICE("service"),
    /** Nomad's system scheduler: one allocation of each group per node; on one node, one per group. */
    SYSTEM("system"),
    /** Nomad's system batch scheduler: one allocation of each group per node, run to completion. */
    SYSBATCH("sysbatch");

    private final String wireName;

    JobType(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<JobType> fromWire(String name) {
        return Arrays.stream(values()).filter(t -> t.wireName.equals(name)).findFirst();
    }

    /** Nomad's default restart policy for this job type. */
    public RestartPolicy defaultRestart() {
        return runsToCompletion() ? RestartPolicy.BATCH_DEFAULT : RestartPolicy.SERVICE_DEFAULT;
    }

    /** Batch and sysbatch: a task that exits 0 is done; service and system tasks are restarted. */
    public boolean runsToCompletion() {
        return this == BATCH || this == SYSBATCH;
    }

    /** System and sysbatch: one allocation per group on each node (Nomad refuses a count above 1). */
    public boolean perNode() {
        return this == SYSTEM || this == SYSBATCH;
    }
}
