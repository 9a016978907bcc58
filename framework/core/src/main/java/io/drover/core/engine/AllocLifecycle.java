package io.drover.core.engine;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEvents;
import io.drover.core.spec.TaskKind;
import io.drover.core.time.Nanos;
import io.drover.driver.api.Timers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lifecycle ordering of one allocation (contract §2): which tasks may start when, when the allocation stops
 * and in which order its tasks are killed, when poststop tasks run, when it is done.
 *
 * <pre>
 * PRESTART --prestarts done, sidecars running--> MAIN --main done / leader dead / a task failed / stop-->
 * STOPPING (leader, other main, sidecars; stage by stage) --> POSTSTOP (poststop tasks run) --> DONE
 * </pre>
 *
 * <p>Serial executor of the allocation only. {@link #reconcile} is idempotent (a pass that finds nothing to do
 * changes nothing) and re-entrant (a task that dies during a pass asks for one more); {@link #beginStop} is not
 * (the allocation calls it once, from a phase before STOPPING).
 */
final class AllocLifecycle {
    private static final Logger LOG = LoggerFactory.getLogger(AllocRunner.class);

    enum Phase {
        INIT,
        PRESTART,
        MAIN,
        STOPPING,
        POSTSTOP,
        DONE
    }

    private final List<TaskRunner> runners;
    private final AllocDirs dirs;
    private final Timers timers;
    private final AllocPublisher publisher;
    private final AllocGc gc;

    private Phase phase = Phase.INIT;
    private List<List<TaskRunner>> stopStages = List.of();
    private int stopStage;
    private boolean poststartLaunched;
    private boolean reconciling;
    private boolean reconcileAgain;
    /** {@link AllocRunner#killNow}: every task is SIGKILLed, poststop tasks that have not started never start. */
    private String forcedReason;

    AllocLifecycle(List<TaskRunner> runners, AllocDirs dirs, Timers timers, AllocPublisher publisher, AllocGc gc) {
        this.runners = runners;
        this.dirs = dirs;
        this.timers = timers;
        this.publisher = publisher;
        this.gc = gc;
    }

    Phase phase() {
        return phase;
    }

    /** Moves to {@code next} (PRESTART at start, DONE for a resumed terminal allocation). */
    void enter(Phase next) {
        phase = next;
    }

    /** Whether the allocation may still be stopped the ordinary way: it has not begun stopping. */
    boolean beforeStop() {
        return phase == Phase.INIT || phase == Phase.PRESTART || phase == Phase.MAIN;
    }

    String forcedReason() {
        return forcedReason;
    }

    /** {@link AllocRunner#killNow}: from now on poststop tasks that have not started never start. */
    void force(String reason) {
        forcedReason = reason;
    }

    /** Re-evaluates the allocation until nothing more changes; re-entrant calls only ask for one more pass. */
    void reconcile() {
        if (reconciling) {
            reconcileAgain = true;
            return;
        }
        reconciling = true;
        try {
            do {
                reconcileAgain = false;
                step();
            } while (reconcileAgain);
        } finally {
            reconciling = false;
        }
    }

    private void step() {
        switch (phase) {
            case INIT, DONE -> {
                // nothing to decide
            }
            case PRESTART -> {
                Optional<TaskRunner> failed = firstFailed();
                if (failed.isPresent()) {
                    beginStop(StopCause.SIBLING_FAILED, failed.get());
                    return;
                }
                boolean ready = runners.stream().allMatch(r -> switch (r.kind()) {
                    case PRESTART -> r.dead();
                    case PRESTART_SIDECAR -> r.running() || r.dead();
                    default -> true;
                });
                if (ready) {
                    phase = Phase.MAIN;
                    publisher.changed();
                    startAll(TaskKind.MAIN);
                    reconcileAgain = true;
                }
            }
            case MAIN -> {
                Optional<TaskRunner> failed = firstFailed();
                if (failed.isPresent()) {
                    beginStop(StopCause.SIBLING_FAILED, failed.get());
                    return;
                }
                if (runners.stream().anyMatch(r -> r.task().leader() && r.dead())) {
                    beginStop(StopCause.LEADER_DEAD, null);
                    return;
                }
                if (!poststartLaunched && of(TaskKind.MAIN).allMatch(TaskRunner::everStarted)) {
                    poststartLaunched = true;
                    startAll(TaskKind.POSTSTART);
                    startAll(TaskKind.POSTSTART_SIDECAR);
                }
                boolean workDone = runners.stream()
                        .filter(r -> !r.kind().sidecar() && r.kind() != TaskKind.POSTSTOP)
                        .filter(r -> r.kind() != TaskKind.POSTSTART || poststartLaunched)
                        .allMatch(TaskRunner::dead);
                if (workDone) {
                    beginStop(StopCause.MAIN_DEAD, null);
                }
            }
            case STOPPING -> {
                while (stopStage < stopStages.size() && stopStages.get(stopStage).stream().allMatch(TaskRunner::dead)) {
                    stopStage++;
                    if (stopStage < stopStages.size()) {
                        killStage(stopStages.get(stopStage));
                    }
                }
                if (stopStage >= stopStages.size()) {
                    phase = Phase.POSTSTOP;
                    publisher.changed();
                    if (forcedReason != null) {
                        skipPoststops();
                    } else {
                        startAll(TaskKind.POSTSTOP);
                    }
                    reconcileAgain = true;
                }
            }
            case POSTSTOP -> {
                if (of(TaskKind.POSTSTOP).allMatch(TaskRunner::dead)) {
                    phase = Phase.DONE;
                    publisher.changed();
                    gc.terminal();
                }
            }
        }
    }

    /** Stops the live tasks stage by stage ({@link StopPlan}), recording why on each; then poststop tasks run. */
    void beginStop(StopCause cause, TaskRunner failed) {
        phase = Phase.STOPPING;
        publisher.changed();
        long now = Nanos.of(timers.now());
        List<TaskRunner> live = new ArrayList<>();
        List<TaskRunner> neverStarted = new ArrayList<>();
        for (TaskRunner r : runners) {
            if (r.dead() || r.kind() == TaskKind.POSTSTOP || r == failed) {
                continue;
            }
            TaskEvent reason = switch (cause) {
                case SIBLING_FAILED -> TaskEvents.siblingFailed(now, failed.name());
                case LEADER_DEAD -> TaskEvents.leaderDead(now);
                case MAIN_DEAD -> TaskEvents.mainDead(now);
                case STOP_REQUESTED -> null;
            };
            if (reason != null) {
                r.record(reason);
            }
            if (r.step() == TaskRunner.Step.NOT_STARTED) {
                neverStarted.add(r);
            } else {
                live.add(r);
            }
        }
        stopStages = StopPlan.stages(live);
        stopStage = 0;
        // Only now, with the plan set: each death re-evaluates the allocation (re-entrantly when the stop came
        // from outside reconcile), and an empty plan there would start poststop tasks beside live ones.
        for (TaskRunner r : neverStarted) {
            r.kill(""); // never ran: dead at once, nothing to signal
        }
        if (!stopStages.isEmpty()) {
            killStage(stopStages.get(0));
        }
        reconcileAgain = true;
    }

    /** After {@link #killNow}: the poststop tasks that never started end dead without running, saying why. */
    private void skipPoststops() {
        long now = Nanos.of(timers.now());
        for (TaskRunner r : of(TaskKind.POSTSTOP).filter(r -> r.step() == TaskRunner.Step.NOT_STARTED).toList()) {
            r.record(TaskEvents.killing(now, Duration.ZERO, io.drover.driver.api.Signals.SIGKILL,
                    forcedReason + "; not started"));
            r.kill("");
        }
    }

    private void killStage(List<TaskRunner> stage) {
        for (TaskRunner r : stage) {
            r.kill("");
        }
    }

    private void startAll(TaskKind kind) {
        if (kind == TaskKind.POSTSTOP && of(TaskKind.POSTSTOP).findAny().isPresent()) {
            // only for a poststop task to read: file I/O on an engine thread, which other allocations' timers
            // (max_runtime, kill escalation) queue behind
            AllocResults.write(dirs, runners, LOG);
        }
        of(kind).forEach(TaskRunner::start);
    }

    private java.util.stream.Stream<TaskRunner> of(TaskKind kind) {
        return runners.stream().filter(r -> r.kind() == kind);
    }

    private Optional<TaskRunner> firstFailed() {
        return runners.stream().filter(r -> r.failed() && r.kind() != TaskKind.POSTSTOP).findFirst();
    }

    /**
     * product.md's {@code DROVER_ALLOC_RESULT}: every main task succeeded, i.e. it ran, is not failed, and was not
     * cut short because another task failed ({@code Sibling Task Failed}). A main task stopped by the user is not
     * failed, as in Nomad; one that never ran because a prestart task failed did not succeed. A failed hook that
     * left the main tasks alone (a poststart that exits 1) is named in {@code DROVER_FAILED_TASKS} only.
     */
    boolean mainTasksSucceeded() {
        return of(TaskKind.MAIN).allMatch(r -> r.everStarted() && !r.failed()
                && !r.hasEvent(io.drover.core.event.TaskEventType.SIBLING_FAILED));
    }

    List<String> failedTasks() {
        return runners.stream().filter(TaskRunner::failed).map(TaskRunner::name).collect(Collectors.toList());
    }

    /**
     * Where a resumed allocation's lifecycle continues, from its restored tasks ({@code stopDesired}: a stop was
     * recorded); prestart tasks that never started are started. A resumed STOPPING phase has an empty stop plan:
     * the next pass moves on to the poststop tasks.
     */
    void resume(boolean stopDesired) {
        phase = resumePhase(stopDesired);
        if (phase == Phase.STOPPING) {
            stopStages = List.of();
            stopStage = 0;
        }
    }

    private Phase resumePhase(boolean stopDesired) {
        boolean poststopStarted = of(TaskKind.POSTSTOP).anyMatch(r -> r.everStarted() || r.dead());
        boolean mainStarted = of(TaskKind.MAIN).anyMatch(r -> r.everStarted() || r.dead());
        poststartLaunched = of(TaskKind.POSTSTART).anyMatch(TaskRunner::everStarted)
                || of(TaskKind.POSTSTART_SIDECAR).anyMatch(TaskRunner::everStarted);
        if (poststopStarted || stopDesired) {
            return Phase.STOPPING;
        }
        if (mainStarted) {
            return Phase.MAIN;
        }
        for (TaskRunner r : runners) {
            if ((r.kind() == TaskKind.PRESTART || r.kind() == TaskKind.PRESTART_SIDECAR)
                    && r.step() == TaskRunner.Step.NOT_STARTED) {
                r.start();
            }
        }
        return Phase.PRESTART;
    }
}
