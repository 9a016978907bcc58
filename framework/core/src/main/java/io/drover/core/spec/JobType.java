package io.drover.core.spec;

import java.util.Arrays;
import java.util.Optional;

/** Nomad's job types that Drover runs. */
public enum JobType {
    BATCH("batch"),
    SERVICE("service");

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
        return this == BATCH ? RestartPolicy.BATCH_DEFAULT : RestartPolicy.SERVICE_DEFAULT;
    }
}
