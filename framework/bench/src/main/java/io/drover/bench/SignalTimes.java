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
 * A catalog whose drivers note, per allocation (unix nanos), when the engine asked for SIGKILL and when the
 * driver's {@code signal} returned — for raw_exec, once {@code kill(-pgid, SIGKILL)} has returned: SIGKILL has
 * landed on the task's process group. Times are read from the wall clock, as the agent's timers read it.
 */
public final class SignalTimes implements DriverCatalog {
    private final DriverCatalog delegate;
    private final Map<String, Long> sigkill = new ConcurrentHashMap<>();
    private final Map<String, Long> sigkillReturned = new ConcurrentHashMap<>();
    private final Map<String, Long> exited = new ConcurrentHashMap<>();

    public SignalTimes(DriverCatalog delegate) {
        this.delegate = delegate;
    }

    public long sigkillAt(String allocId) {
        return sigkill.getOrDefault(allocId, 0L);
    }

    /** When the driver completed the task's exit stage (raw_exec: reaped, tree verified, output flushed). */
    public long exitedAt(String allocId) {
        return exited.getOrDefault(allocId, 0L);
    }

    public long sigkillReturnedAt(String allocId) {
        return sigkillReturned.getOrDefault(allocId, 0L);
    }

    @Override
    public Optional<TaskDriver> driver(String name) {
        return delegate.driver(name).map(Timed::new);
    }

    @Override
    public Set<String> names() {
        return delegate.names();
    }

    private final class Timed extends ForwardingTaskDriver {
        Timed(TaskDriver d) {
            super(d);
        }

        @Override
        public java.util.concurrent.CompletionStage<io.drover.driver.api.ExitResult> awaitExit(String taskId)
                throws io.drover.driver.api.TaskNotFoundException {
            String alloc = taskId.substring(0, taskId.indexOf('/'));
            return super.awaitExit(taskId)
                    .whenComplete((r, e) -> exited.putIfAbsent(alloc, Nanos.of(Instant.now())));
        }

        @Override
        public void signal(String taskId, String signal) throws DriverException {
            String alloc = taskId.substring(0, taskId.indexOf('/'));
            if (signal.equals("SIGKILL")) {
                sigkill.putIfAbsent(alloc, Nanos.of(Instant.now()));
            }
            super.signal(taskId, signal);
            if (signal.equals("SIGKILL")) {
                sigkillReturned.putIfAbsent(alloc, Nanos.of(Instant.now()));
            }
        }
    }
}
