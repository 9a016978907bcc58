package io.drover.core.driver;

import io.drover.core.DroverVersion;
import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.PluginConfigException;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.Timers;
import io.drover.driver.api.schema.ConfigSchema;
import io.drover.driver.api.schema.ConfigValidation;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Creates one driver from its extension class and initialises it. Every failure of the plugin's code (an
 * exception or a LinkageError; other Errors propagate) becomes a {@link Failure} with a one-line reason. The
 * plugin's class loader is the thread's context class loader while its code runs. Called on the loading thread.
 */
final class DriverFactory {
    /** A driver could not be created or initialised; {@code reason} is one line for the user. */
    static class Failure extends Exception {
        Failure(String reason) {
            super(reason, null, false, false);
        }
    }

    private final Map<String, Map<String, Object>> pluginConfigs;
    private final Timers timers;

    DriverFactory(Map<String, Map<String, Object>> pluginConfigs, Timers timers) {
        this.pluginConfigs = pluginConfigs == null ? Map.of() : pluginConfigs;
        this.timers = timers;
    }

    /** A new instance of {@code type}, through its public no-arg constructor. */
    TaskDriver create(Class<? extends TaskDriver> type) throws Failure {
        Constructor<? extends TaskDriver> constructor;
        try {
            constructor = type.getConstructor();
        } catch (NoSuchMethodException e) {
            throw new Failure("driver class " + type.getName() + " has no public no-arg constructor");
        }
        try {
            return withLoader(type.getClassLoader(), () -> {
                try {
                    return constructor.newInstance();
                } catch (InvocationTargetException e) {
                    throw new Wrapped(new Failure("driver class " + type.getName() + " could not be created: "
                            + "constructor threw " + Problems.describe(e.getCause())));
                } catch (ReflectiveOperationException e) {
                    throw new Wrapped(new Failure("driver class " + type.getName() + " could not be created: "
                            + Problems.describe(e)));
                }
            });
        } catch (Wrapped w) {
            throw w.failure;
        } catch (RuntimeException | LinkageError e) {
            throw new Failure("driver class " + type.getName() + " could not be created: " + Problems.describe(e));
        }
    }

    /** The driver's name, which must be a non-blank constant. */
    String name(TaskDriver driver) throws Failure {
        String name;
        try {
            name = withLoader(driver.getClass().getClassLoader(), driver::name);
        } catch (RuntimeException | LinkageError e) {
            throw new Failure("driver class " + driver.getClass().getName() + ": name() failed: "
                    + Problems.describe(e));
        }
        if (name == null || name.isBlank()) {
            throw new Failure("driver class " + driver.getClass().getName() + " has a blank name()");
        }
        return name;
    }

    /**
     * The driver refused its {@code plugin "<name>"} config block ({@link PluginConfigException}): a config error,
     * which the caller reports as such rather than as a broken plugin.
     */
    static final class ConfigFailure extends Failure {
        final String driver;
        final ConfigProblem problem;
        final List<ConfigProblem> problems;

        ConfigFailure(String name, ConfigProblem problem) {
            this(name, List.of(problem));
        }

        /** Every problem the driver's plugin config schema found, sorted by key. */
        ConfigFailure(String name, List<ConfigProblem> problems) {
            super("driver \"" + name + "\" refused its plugin config: " + problems.get(0).key() + ": "
                    + problems.get(0).message());
            this.driver = name;
            this.problem = problems.get(0);
            this.problems = List.copyOf(problems);
        }
    }

    /** Calls {@code init} with the driver's {@code plugin "<name>"} config block. */
    void init(String name, TaskDriver driver) throws Failure {
        try {
            withLoader(driver.getClass().getClassLoader(), () -> {
                try {
                    Map<String, Object> block = pluginConfigs.getOrDefault(name, Map.of());
                    Optional<ConfigSchema> schema = driver.pluginConfigSchema();
                    if (schema != null && schema.isPresent()) {
                        ConfigValidation checked = schema.get().validate(block);
                        if (!checked.valid()) {
                            throw new Wrapped(new ConfigFailure(name, checked.problems()));
                        }
                        block = checked.view().asMap();
                    }
                    driver.init(new DriverContext(block, timers, DroverVersion.VERSION));
                    return null;
                } catch (PluginConfigException e) {
                    ConfigProblem p = e.problem();
                    throw new Wrapped(new ConfigFailure(name, new ConfigProblem(p.key() == null ? "" : p.key(),
                            p.message() == null || p.message().isBlank() ? Problems.describe(e) : p.message())));
                } catch (DriverException e) {
                    throw new Wrapped(new Failure("driver \"" + name + "\" failed to initialise: "
                            + (e.getMessage() == null ? Problems.describe(e) : e.getMessage())));
                }
            });
        } catch (Wrapped w) {
            throw w.failure;
        } catch (RuntimeException | LinkageError e) {
            throw new Failure("driver \"" + name + "\" failed to initialise: " + Problems.describe(e));
        }
    }

    static <T> T withLoader(ClassLoader loader, Supplier<T> action) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            return action.get();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** Carries a Failure out of a Supplier. */
    private static final class Wrapped extends RuntimeException {
        final Failure failure;

        Wrapped(Failure failure) {
            super(null, null, false, false);
            this.failure = failure;
        }
    }
}
