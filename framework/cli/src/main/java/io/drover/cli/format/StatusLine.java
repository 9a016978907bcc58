package io.drover.cli.format;

import io.drover.core.state.AllocationState;

/**
 * The one-line live summary of an allocation:
 * {@code example.test-group[0] 3c584bf6  running  init:dead web:running poststop:pending}
 * (tasks in declaration order). Pure.
 */
public final class StatusLine {
    private static final int SHORT_ID = 8;

    private StatusLine() {}

    /** @param fullId print the whole allocation ID instead of its first 8 characters, as Nomad's -verbose does */
    public static String of(AllocationState alloc, boolean fullId) {
        String id = fullId || alloc.id().length() <= SHORT_ID ? alloc.id() : alloc.id().substring(0, SHORT_ID);
        StringBuilder sb = new StringBuilder()
                .append(alloc.name()).append(' ').append(id)
                .append("  ").append(alloc.clientStatus().wireName()).append(' ');
        alloc.taskStates().forEach((task, state) ->
                sb.append(' ').append(task).append(':').append(state.state().wireName()));
        return sb.toString();
    }
}
