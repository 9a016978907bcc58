package io.drover.bench;

import io.drover.core.driver.DriverCatalog;
import io.drover.core.time.Nanos;
import java.time.Instant;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.ForwardingTaskDriver;
import io.drover.driver.api.TaskDriver;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A catalog whose drivers note, per task of an allocation (unix nanos; the first run's), when the engine asked for SIGKILL and when the
 * driver's {@code signal} returned — for raw_exec, once {@code kill(-pgid, SIGKILL)} has returned: SIGKILL has
 * landed on the task's process group. Times are read from the wall clock, as the agent's timers read it.
 */
final class SignalTimes implements DriverCatalog {
    private final DriverCatalog delegate;
    private final Map<String, Long> sigkill = new ConcurrentHashMap<>();
    private final Map<String, Long> sigkillReturned = new ConcurrentHashMap<>();
    private final Map<String, Long> exited = new ConcurrentHashMap<>();

    SignalTimes(DriverCatalog delegate) {
        this.delegate = delegate;
    }

    long sigkillAt(String allocId, String task) {
        return sigkill.getOrDefault(allocId + "/" + task, 0L);
    }

    /** When the driver completed the task's exit stage (raw_exec: reaped, tree verified, output flushed). */
    long exitedAt(String allocId, String task) {
        return exited.getOrDefault(allocId + "/" + task, 0L);
    }

    long sigkillReturnedAt(String allocId, String task) {
        return sigkillReturned.getOrDefault(allocId + "/" + task, 0L);
    }

    @Override
    public Optional<TaskDriver> driver(String name) {
        return delegate.driver(name).map(Timed::new);
    }

    @Override
    public Set<String> names() {
        return delegate.names();
    }

    /** "alloc/task" of an engine task id "alloc/task/run". */
    private static String key(String taskId) {
        int run = taskId.lastIndexOf('/');
        return run > 0 ? taskId.substring(0, run) : taskId;
    }

    private final class Timed extends ForwardingTaskDriver {
        Timed(TaskDriver d) {
            super(d);
        }

        @Override
        public java.util.concurrent.CompletionStage<io.drover.driver.api.ExitResult> awaitExit(String taskId)
                throws io.drover.driver.api.TaskNotFoundException {
            String task = key(taskId);
            return super.awaitExit(taskId)
                    .whenComplete((r, e) -> exited.putIfAbsent(task, Nanos.of(Instant.now())));
        }

        @Override
        public void signal(String taskId, String signal) throws DriverException {
            String task = key(taskId);
            if (signal.equals("SIGKILL")) {
                sigkill.putIfAbsent(task, Nanos.of(Instant.now()));
            }
            super.signal(taskId, signal);
            if (signal.equals("SIGKILL")) {
                sigkillReturned.putIfAbsent(task, Nanos.of(Instant.now()));
            }
        }
    }
}
