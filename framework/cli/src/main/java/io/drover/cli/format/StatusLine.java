package io.drover.cli.format;

import io.drover.core.state.AllocationState;
import io.drover.core.state.TaskLifeState;
import io.drover.core.state.TaskState;
import java.util.EnumMap;
import java.util.Map;

/**
 * The one-line live summary of an allocation:
 * {@code example.test-group[0] 3c584bf6  running  init:dead web:running poststop:pending}
 * (tasks in declaration order). When that list would pass {@code width} columns (a group of thousands of tasks),
 * the tasks are counted per state instead: {@code big.g[0] 3c584bf6  running  5000 tasks: 3 running, 4990
 * pending, 7 dead}, so the line stays as long as a screen is wide whatever the number of tasks. Names are
 * escaped ({@link TerminalText}). Pure; the work is linear in the number of tasks.
 */
public final class StatusLine {
    private static final int SHORT_ID = 8;

    /** The width a line is kept to when the terminal's width is unknown (a pipe, a CI log). */
    public static final int DEFAULT_WIDTH = 200;

    private StatusLine() {}

    /** As {@link #of(AllocationState, boolean, int)} with the {@link #DEFAULT_WIDTH}. */
    public static String of(AllocationState alloc, boolean fullId) {
        return of(alloc, fullId, DEFAULT_WIDTH);
    }

    /**
     * @param fullId print the whole allocation ID instead of its first 8 characters, as Nomad's -verbose does
     * @param width the columns the task list may take the line to; past it the tasks are counted per state
     *     ({@link #DEFAULT_WIDTH} when 0 or less)
     */
    public static String of(AllocationState alloc, boolean fullId, int width) {
        int limit = width > 0 ? width : DEFAULT_WIDTH;
        String id = fullId || alloc.id().length() <= SHORT_ID ? alloc.id() : alloc.id().substring(0, SHORT_ID);
        StringBuilder sb = new StringBuilder()
                .append(TerminalText.escape(alloc.name())).append(' ').append(TerminalText.escape(id))
                .append("  ").append(alloc.clientStatus().wireName()).append(' ');
        int head = sb.length();
        for (Map.Entry<String, TaskState> e : alloc.taskStates().entrySet()) {
            sb.append(' ').append(TerminalText.escape(e.getKey())).append(':')
                    .append(e.getValue().state().wireName());
            if (sb.length() > limit) {
                sb.setLength(head);
                return sb.append(' ').append(counts(alloc)).toString();
            }
        }
        return sb.toString();
    }

    /** {@code 5000 tasks: 3 running, 4990 pending, 7 dead} (states with no task left out). */
    static String counts(AllocationState alloc) {
        Map<TaskLifeState, Integer> byState = new EnumMap<>(TaskLifeState.class);
        alloc.taskStates().values().forEach(s -> byState.merge(s.state(), 1, Integer::sum));
        StringBuilder sb = new StringBuilder().append(alloc.taskStates().size()).append(" tasks:");
        String sep = " ";
        for (TaskLifeState state : new TaskLifeState[] {TaskLifeState.RUNNING, TaskLifeState.PENDING,
            TaskLifeState.DEAD}) {
            Integer n = byState.get(state);
            if (n != null) {
                sb.append(sep).append(n).append(' ').append(state.wireName());
                sep = ", ";
            }
        }
        return sb.toString();
    }
}
