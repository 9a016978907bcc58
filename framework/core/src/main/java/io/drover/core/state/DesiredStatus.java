package io.drover.core.state;

import com.fasterxml.jackson.annotation.JsonValue;

/** An allocation's {@code DesiredStatus}. */
public enum DesiredStatus {
    RUN("run"),
    STOP("stop");

    private final String wireName;

    DesiredStatus(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }
}
