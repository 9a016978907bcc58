package io.drover.core.state;

import com.fasterxml.jackson.annotation.JsonValue;

/** An allocation's {@code ClientStatus}, with Nomad's descriptions. */
public enum ClientStatus {
    PENDING("pending", "No tasks have started"),
    RUNNING("running", "Tasks are running"),
    COMPLETE("complete", "All tasks have completed"),
    FAILED("failed", "Failed tasks");

    private final String wireName;
    private final String description;

    ClientStatus(String wireName, String description) {
        this.wireName = wireName;
        this.description = description;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    public String description() {
        return description;
    }

    public boolean terminal() {
        return this == COMPLETE || this == FAILED;
    }
}
