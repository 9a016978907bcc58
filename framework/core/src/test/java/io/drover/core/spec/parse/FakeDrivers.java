package io.drover.core.spec.parse;

import io.drover.core.driver.DriverCatalog;
import io.drover.driver.api.Capabilities;
import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverHealth;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.TaskStatus;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/** A catalog of fake drivers that only validate configs; nothing runs. */
final class FakeDrivers implements DriverCatalog {
    private final Map<String, TaskDriver> drivers = new TreeMap<>();

    FakeDrivers with(String name, Function<Map<String, Object>, List<ConfigProblem>> validator) {
        drivers.put(name, new ValidatingDriver(name, validator));
        return this;
    }

    /** A driver that declares a task config schema, and finds {@code extra} beyond it. */
    FakeDrivers withSchema(String name, io.drover.driver.api.schema.ConfigSchema schema,
            Function<Map<String, Object>, List<ConfigProblem>> extra) {
        drivers.put(name, new io.drover.driver.api.ForwardingTaskDriver(new ValidatingDriver(name, extra)) {
            @Override
            public Optional<io.drover.driver.api.schema.ConfigSchema> taskConfigSchema() {
                return Optional.of(schema);
            }
        });
        return this;
    }

    @Override
    public Optional<TaskDriver> driver(String name) {
        return Optional.ofNullable(drivers.get(name));
    }

    @Override
    public Set<String> names() {
        return drivers.keySet();
    }

    private record ValidatingDriver(String name, Function<Map<String, Object>, List<ConfigProblem>> validator)
            implements TaskDriver {
        @Override
        public Capabilities capabilities() {
            return new Capabilities(false, false);
        }

        @Override
        public void init(DriverContext context) {}

        @Override
        public DriverHealth health() {
            return DriverHealth.healthy("fake");
        }

        @Override
        public List<ConfigProblem> validateConfig(Map<String, Object> config) {
            return validator.apply(config);
        }

        @Override
        public CompletionStage<TaskHandle> start(TaskConfig config) {
            throw new UnsupportedOperationException("fake driver runs nothing");
        }

        @Override
        public CompletionStage<ExitResult> awaitExit(String taskId) {
            throw new UnsupportedOperationException("fake driver runs nothing");
        }

        @Override
        public void signal(String taskId, String signal) {
            throw new UnsupportedOperationException("fake driver runs nothing");
        }

        @Override
        public TaskStatus inspect(String taskId) {
            throw new UnsupportedOperationException("fake driver runs nothing");
        }

        @Override
        public void destroy(String taskId) {}
    }
}
