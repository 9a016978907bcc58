package io.drover.core.engine;

import io.drover.core.event.TaskEvents;
import io.drover.core.gc.GcReason;
import io.drover.core.spec.TaskKind;
import io.drover.core.time.Nanos;
import io.drover.driver.api.Timers;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The garbage-collection and kill policies of one allocation: which poststop tasks a stop or a client GC may kill
 * ({@code gc_kill_policy}, a task's {@code lifecycle.gc_kill}), and destroying the allocation for client GC
 * (a {@code Garbage Collected} event on every task, the allocation directory removed, the record kept).
 *
 * <p>Serial executor of the allocation only. {@link #destroy} is idempotent (a second call answers
 * {@link DestroyOutcome#ALREADY_DESTROYED} or joins the pending one).
 */
final class AllocGc {
    private static final Logger LOG = LoggerFactory.getLogger(AllocRunner.class);

    private final String id;
    private final List<TaskRunner> runners;
    private final EngineConfig config;
    private final AllocDirs dirs;
    private final Timers timers;
    private final AllocPublisher publisher;

    private boolean destroyed;
    private GcReason pendingDestroy;
    private CompletableFuture<DestroyOutcome> pendingDestroyDone;

    AllocGc(String id, List<TaskRunner> runners, EngineConfig config, AllocDirs dirs, Timers timers,
            AllocPublisher publisher) {
        this.id = id;
        this.runners = runners;
        this.config = config;
        this.dirs = dirs;
        this.timers = timers;
        this.publisher = publisher;
    }

    /** A resumed allocation that a previous agent destroyed stays destroyed. */
    void restore(boolean wasDestroyed) {
        destroyed = wasDestroyed;
    }

    /**
     * Destroys the allocation (see {@link AllocRunner#destroy}), completing {@code done}: at once when
     * {@code terminal}; when {@code inPoststop} and every live poststop task may be killed, once they are dead
     * (they are killed now; true is returned, the allocation must re-evaluate); else it is left alone.
     */
    boolean destroy(GcReason reason, boolean terminal, boolean inPoststop, CompletableFuture<DestroyOutcome> done) {
        if (destroyed) {
            done.complete(DestroyOutcome.ALREADY_DESTROYED);
        } else if (terminal) {
            finishDestroy(reason);
            done.complete(DestroyOutcome.DESTROYED);
        } else if (pendingDestroy != null) {
            pendingDestroyDone.whenComplete((o, e) -> done.complete(o));
        } else if (inPoststop && !livePoststops().isEmpty() && livePoststops().stream()
                .allMatch(r -> config.killPolicy().killsPoststop(r.task().lifecycle()))) {
            pendingDestroy = reason;
            pendingDestroyDone = done;
            for (TaskRunner r : livePoststops()) {
                r.kill(killReason("allocation garbage collected (" + reason.wireName() + ")", r));
            }
            return true;
        } else {
            done.complete(DestroyOutcome.SKIPPED_LIVE);
        }
        return false;
    }

    /** The allocation is terminal: a destroy that waited for its poststop tasks completes now. */
    void terminal() {
        if (pendingDestroy != null) {
            finishDestroy(pendingDestroy);
            pendingDestroy = null;
            pendingDestroyDone.complete(DestroyOutcome.DESTROYED);
        }
    }

    /** A stop while poststop tasks run: the ones the kill policy lets go are killed (with escalation). */
    void stopPoststops() {
        for (TaskRunner r : livePoststops()) {
            if (config.killPolicy().killsPoststop(r.task().lifecycle())) {
                r.kill(killReason("allocation stopped", r));
            }
        }
    }

    private List<TaskRunner> livePoststops() {
        return runners.stream().filter(r -> r.kind() == TaskKind.POSTSTOP && !r.dead()).toList();
    }

    private String killReason(String what, TaskRunner r) {
        Boolean own = r.task().lifecycle() == null ? null : r.task().lifecycle().gcKill();
        return what + ", " + (own != null ? "lifecycle gc_kill = " + own
                : "gc_kill_policy " + config.killPolicy().wireName());
    }

    /** Appends the Garbage Collected event to every task and removes the allocation directory. */
    private void finishDestroy(GcReason reason) {
        destroyed = true;
        long now = Nanos.of(timers.now());
        for (TaskRunner r : runners) {
            Boolean own = r.task().lifecycle() == null ? null : r.task().lifecycle().gcKill();
            r.record(TaskEvents.garbageCollected(now, reason.wireName(), config.killPolicy().wireName(), own));
        }
        publisher.changed();
        try {
            dirs.delete();
        } catch (IOException | RuntimeException e) {
            LOG.warn("allocation {}: garbage collected ({}), record kept, but its directory {} could not be removed: "
                    + "{}", id, reason.wireName(), dirs.root(), e.getMessage());
            return;
        }
        LOG.info("allocation {}: garbage collected ({}), directory removed, record kept", id,
                reason.wireName());
    }
}
