package io.drover.cli.bench;

import io.drover.core.driver.DriverCatalog;
import io.drover.core.time.Nanos;
import io.drover.driver.api.Capabilities;
import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.DriverHealth;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.TaskNotFoundException;
import io.drover.driver.api.TaskStatus;
import io.drover.driver.api.Timers;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/** A catalog whose drivers note when the engine asked for SIGKILL, per allocation (unix nanos). */
final class SignalTimes implements DriverCatalog {
    private final DriverCatalog delegate;
    private final Timers timers;
    private final Map<String, Long> sigkill = new ConcurrentHashMap<>();

    SignalTimes(DriverCatalog delegate, Timers timers) {
        this.delegate = delegate;
        this.timers = timers;
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

    private final class Timed implements TaskDriver {
        private final TaskDriver d;

        Timed(TaskDriver d) {
            this.d = d;
        }

        @Override
        public String name() {
            return d.name();
        }

        @Override
        public Capabilities capabilities() {
            return d.capabilities();
        }

        @Override
        public void init(DriverContext context) throws DriverException {
            d.init(context);
        }

        @Override
        public DriverHealth health() {
            return d.health();
        }

        @Override
        public List<ConfigProblem> validateConfig(Map<String, Object> config) {
            return d.validateConfig(config);
        }

        @Override
        public CompletionStage<TaskHandle> start(TaskConfig config) {
            return d.start(config);
        }

        @Override
        public CompletionStage<ExitResult> awaitExit(String taskId) throws TaskNotFoundException {
            return d.awaitExit(taskId);
        }

        @Override
        public void signal(String taskId, String signal) throws DriverException {
            if (signal.equals("SIGKILL")) {
                sigkill.putIfAbsent(taskId.substring(0, taskId.indexOf('/')), Nanos.of(timers.now()));
            }
            d.signal(taskId, signal);
        }

        @Override
        public TaskStatus inspect(String taskId) throws TaskNotFoundException {
            return d.inspect(taskId);
        }

        @Override
        public void destroy(String taskId) {
            d.destroy(taskId);
        }
    }
}
