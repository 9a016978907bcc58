package io.drover.core.state;

import com.fasterxml.jackson.annotation.JsonValue;

/** A task's {@code State}: never blank (the seed's bug printed {@code is ""}). */
public enum TaskLifeState {
    PENDING("pending"),
    RUNNING("running"),
    DEAD("dead");

    private final String wireName;

    TaskLifeState(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }
}
