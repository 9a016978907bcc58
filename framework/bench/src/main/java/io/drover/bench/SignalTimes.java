package io.drover.bench;

import io.drover.core.driver.DriverCatalog;
import io.drover.core.time.Nanos;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.ForwardingTaskDriver;
import io.drover.driver.api.TaskDriver;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A catalog whose drivers note when the engine asked for SIGKILL, per allocation (unix nanos, from the wall
 * clock: the agent's timers read the same clock).
 */
final class SignalTimes implements DriverCatalog {
    private final DriverCatalog delegate;
    private final Map<String, Long> sigkill = new ConcurrentHashMap<>();

    SignalTimes(DriverCatalog delegate) {
        this.delegate = delegate;
    }

    long sigkillAt(String allocId) {
        return sigkill.getOrDefault(allocId, 0L);
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
        public void signal(String taskId, String signal) throws DriverException {
            if (signal.equals("SIGKILL")) {
                sigkill.putIfAbsent(taskId.substring(0, taskId.indexOf('/')), Nanos.of(java.time.Instant.now()));
            }
            super.signal(taskId, signal);
        }
    }
}
