package io.drover.testkit;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskGroup;
import io.drover.core.spec.TaskKind;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.TaskLifeState;
import io.drover.core.state.TaskState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The lifecycle contract (product §2) as checks on every state an allocation published. The kit checks every
 * run with it, so a user's test fails loudly if the engine ever breaks the contract; the property tests check
 * it on random jobs. Pure.
 *
 * <p>A GC invariant ("garbage collection never removes an event") belongs here too once client GC lands: a
 * run that destroys allocations would check that every event of the last state before GC is still in every
 * later state.
 */
final class LifecycleInvariants {
    private LifecycleInvariants() {}

    private static final Set<TaskEventType> STOP_BEGINS =
            Set.of(TaskEventType.WAITING_SHUTDOWN_DELAY, TaskEventType.KILLING, TaskEventType.KILLED);

    /**
     * @param maxKillTimeout the client's cap on kill_timeout
     * @return one line per broken invariant, empty when the run kept the contract
     */
    static List<String> violations(Allocation alloc, java.time.Duration maxKillTimeout) {
        List<String> out = new ArrayList<>();
        List<AllocationState> history = alloc.history();
        TaskGroup group = alloc.state().group();
        everySnapshot(history, group, out);
        timeOnlyMovesForward(alloc, out);
        prestartBeforeMain(history, group, out);
        poststartAfterMainRunning(history, group, out);
        poststopAfterEveryOtherTaskDead(history, group, out);
        stopOrder(history, group, out);
        poststopOnce(alloc.state(), group, out);
        killsAndRunsAreBounded(alloc.state(), group, maxKillTimeout, out);
        terminal(alloc.state(), out);
        return out;
    }

    /** No blank State; every task present; events only appended, never changed or removed; times ordered. */
    private static void everySnapshot(List<AllocationState> history, TaskGroup group, List<String> out) {
        Map<String, TaskState> previous = Map.of();
        for (int i = 0; i < history.size(); i++) {
            Map<String, TaskState> states = history.get(i).taskStates();
            for (Task t : group.tasks()) {
                TaskState s = states.get(t.name());
                if (s == null || s.state() == null) {
                    out.add("state " + i + ": task " + t.name() + " has no State");
                    continue;
                }
                TaskState before = previous.get(t.name());
                if (before != null && (s.events().size() < before.events().size()
                        || !s.events().subList(0, before.events().size()).equals(before.events()))) {
                    out.add("state " + i + ": events of task " + t.name() + " were changed or removed");
                }
                long last = Long.MIN_VALUE;
                for (TaskEvent e : s.events()) {
                    if (e.time() < last) {
                        out.add("state " + i + ": events of task " + t.name() + " go back in time at " + e.type());
                        break;
                    }
                    last = e.time();
                }
            }
            if (states.size() != group.tasks().size()) {
                out.add("state " + i + ": " + states.size() + " task states for " + group.tasks().size() + " tasks");
            }
            previous = states;
        }
    }

    /** Across tasks too: an event recorded after another never carries an earlier time. */
    private static void timeOnlyMovesForward(Allocation alloc, List<String> out) {
        long last = Long.MIN_VALUE;
        for (TimedEvent e : alloc.timeline()) {
            if (e.event().time() < last) {
                out.add("event " + e.event().type().wireName() + " of task " + e.task()
                        + " was recorded after a later one");
                return;
            }
            last = e.event().time();
        }
    }

    private static void prestartBeforeMain(List<AllocationState> history, TaskGroup group, List<String> out) {
        int at = firstWhere(history, group, TaskKind.MAIN::equals, TaskEventType.STARTED);
        if (at < 0) {
            return;
        }
        for (Task t : of(group, TaskKind.PRESTART)) {
            TaskState s = history.get(at).taskStates().get(t.name());
            if (s.state() != TaskLifeState.DEAD || s.failed()) {
                out.add("a main task started while prestart task " + t.name() + " was " + s.state().wireName()
                        + (s.failed() ? " (failed)" : ""));
            }
        }
    }

    private static void poststartAfterMainRunning(List<AllocationState> history, TaskGroup group, List<String> out) {
        int at = firstWhere(history, group, k -> k == TaskKind.POSTSTART || k == TaskKind.POSTSTART_SIDECAR,
                TaskEventType.TASK_SETUP);
        if (at < 0) {
            return;
        }
        for (Task t : of(group, TaskKind.MAIN)) {
            if (!has(history.get(at).taskStates().get(t.name()), TaskEventType.STARTED)) {
                out.add("a poststart task started before main task " + t.name() + " ran");
            }
        }
    }

    private static void poststopAfterEveryOtherTaskDead(List<AllocationState> history, TaskGroup group,
            List<String> out) {
        int at = firstWhere(history, group, TaskKind.POSTSTOP::equals, TaskEventType.TASK_SETUP);
        if (at < 0) {
            return;
        }
        for (Task t : group.tasks()) {
            TaskState s = history.get(at).taskStates().get(t.name());
            if (t.kind() != TaskKind.POSTSTOP && s.state() != TaskLifeState.DEAD) {
                out.add("a poststop task started while task " + t.name() + " was " + s.state().wireName());
            }
        }
    }

    /** Leader, then the other non-sidecar tasks, then sidecars: a stage is stopped only once the earlier ones died. */
    private static void stopOrder(List<AllocationState> history, TaskGroup group, List<String> out) {
        for (Task t : group.tasks()) {
            if (t.kind() == TaskKind.POSTSTOP || t.leader()) {
                continue;
            }
            int at = stopBegins(history, t.name());
            if (at < 0) {
                continue;
            }
            Map<String, TaskState> states = history.get(at).taskStates();
            for (Task earlier : group.tasks()) {
                boolean mustBeDead = t.kind().sidecar()
                        ? earlier.kind() != TaskKind.POSTSTOP && !earlier.kind().sidecar()
                        : earlier.leader();
                if (mustBeDead && states.get(earlier.name()).state() != TaskLifeState.DEAD) {
                    out.add("task " + t.name() + " was stopped while " + (earlier.leader() ? "leader " : "task ")
                            + earlier.name() + " was " + states.get(earlier.name()).state().wireName());
                }
            }
        }
    }

    /** The first state where the task's stop began (not counting a max_runtime kill), or -1. */
    private static int stopBegins(List<AllocationState> history, String task) {
        for (int i = 0; i < history.size(); i++) {
            for (TaskEvent e : history.get(i).taskStates().get(task).events()) {
                if (e.type() == TaskEventType.MAX_RUNTIME_EXCEEDED) {
                    break;
                }
                if (STOP_BEGINS.contains(e.type())) {
                    return i;
                }
            }
        }
        return -1;
    }

    private static void poststopOnce(AllocationState last, TaskGroup group, List<String> out) {
        for (Task t : of(group, TaskKind.POSTSTOP)) {
            TaskState s = last.taskStates().get(t.name());
            long setups = count(s, TaskEventType.TASK_SETUP);
            long starts = count(s, TaskEventType.STARTED);
            long restarts = count(s, TaskEventType.RESTARTING);
            if (setups != 1 || starts > 1 + restarts) {
                out.add("poststop task " + t.name() + " ran " + setups + " time(s) (" + starts + " starts, "
                        + restarts + " restarts)");
            }
        }
    }

    /**
     * Kill escalation and max_runtime (product §2.4, §3): a run ends at most the capped kill_timeout after its
     * {@code Killing} event, so a run never outlives max_runtime plus that; {@code Restarts} counts the
     * {@code Restarting} events.
     */
    private static void killsAndRunsAreBounded(AllocationState last, TaskGroup group,
            java.time.Duration maxKillTimeout, List<String> out) {
        for (Task t : group.tasks()) {
            TaskState s = last.taskStates().get(t.name());
            long grace = (t.killTimeout().compareTo(maxKillTimeout) > 0 ? maxKillTimeout : t.killTimeout()).toNanos();
            long killingAt = -1;
            long startedAt = -1;
            for (TaskEvent e : s.events()) {
                switch (e.type()) {
                    case STARTED -> startedAt = e.time();
                    case KILLING -> killingAt = e.time();
                    case TERMINATED -> {
                        if (killingAt >= 0 && e.time() - killingAt > grace) {
                            out.add("task " + t.name() + " died " + (e.time() - killingAt) / 1_000_000
                                    + "ms after its Killing event, past its kill_timeout");
                        }
                        if (t.maxRuntime() != null && startedAt >= 0
                                && e.time() - startedAt > t.maxRuntime().toNanos() + grace) {
                            out.add("a run of task " + t.name() + " lasted " + (e.time() - startedAt) / 1_000_000
                                    + "ms, past max_runtime and kill_timeout");
                        }
                        killingAt = -1;
                        startedAt = -1;
                    }
                    default -> {
                    }
                }
            }
            long restarting = count(s, TaskEventType.RESTARTING);
            if (s.restarts() != restarting) {
                out.add("task " + t.name() + " has Restarts " + s.restarts() + " but " + restarting
                        + " Restarting events");
            }
        }
    }

    private static void terminal(AllocationState last, List<String> out) {
        if (!last.clientStatus().terminal()) {
            out.add("the allocation ended " + last.clientStatus().wireName());
        }
        boolean anyFailed = false;
        for (Map.Entry<String, TaskState> e : last.taskStates().entrySet()) {
            anyFailed |= e.getValue().failed();
            if (e.getValue().state() != TaskLifeState.DEAD) {
                out.add("task " + e.getKey() + " ended " + e.getValue().state().wireName());
            } else if (e.getValue().finishedAt() == null) {
                out.add("dead task " + e.getKey() + " has no FinishedAt");
            }
        }
        if (last.clientStatus().terminal() && (last.clientStatus() == ClientStatus.FAILED) != anyFailed) {
            out.add("the allocation is " + last.clientStatus().wireName() + " but "
                    + (anyFailed ? "a task failed" : "no task failed"));
        }
    }

    private static int firstWhere(List<AllocationState> history, TaskGroup group, Predicate<TaskKind> kind,
            TaskEventType type) {
        for (int i = 0; i < history.size(); i++) {
            for (Task t : group.tasks()) {
                if (kind.test(t.kind()) && has(history.get(i).taskStates().get(t.name()), type)) {
                    return i;
                }
            }
        }
        return -1;
    }

    private static List<Task> of(TaskGroup group, TaskKind kind) {
        return group.tasks().stream().filter(t -> t.kind() == kind).toList();
    }

    private static boolean has(TaskState s, TaskEventType type) {
        return s != null && s.events().stream().anyMatch(e -> e.type() == type);
    }

    private static long count(TaskState s, TaskEventType type) {
        return s.events().stream().filter(e -> e.type() == type).count();
    }
}
