package io.drover.core.engine;

import io.drover.core.event.TaskEvent;
import io.drover.core.spec.Task;
import io.drover.core.time.ManualExecutor;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.tck.VirtualTimers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import java.util.random.RandomGenerator;

/**
 * One task's {@link TemplateHook} and {@link TemplateWatch} on a virtual clock, with real files: the allocation's
 * serial executor is a {@link ManualExecutor} the test drains, every timer is a {@link VirtualTimers} one, and the
 * template's real pool work (render, stat, write) runs on the {@link HookPool} as in an agent — the harness waits for
 * its result to come back onto the executor (an event, bounded), never for time to pass. What the watch does to the
 * task (signal, restart, exec, events, fail) is recorded with the virtual time it happened at.
 */
final class TemplateHookHarness {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    /** What the watch asked of the task, at which virtual time. */
    record Call(Instant at, String what, String detail) {}

    final VirtualTimers timers = new VirtualTimers(T0);
    final ManualExecutor serial = new ManualExecutor();
    final List<Call> calls = new ArrayList<>();
    final List<TaskEvent> events = new ArrayList<>();
    final AllocDirs dirs;
    final Path taskDir;
    private final Task task;
    private final TemplateHook hook;
    private boolean dead;
    /** What an exec in the task does; the default: a driver without exec. */
    BiFunction<List<String>, Duration, CompletionStage<ExitResult>> exec = (cmd, timeout) -> new TaskDriver() {
        @Override
        public String name() {
            return "none";
        }

        @Override
        public io.drover.driver.api.Capabilities capabilities() {
            return new io.drover.driver.api.Capabilities(false, false);
        }

        @Override
        public void init(io.drover.driver.api.DriverContext context) {}

        @Override
        public io.drover.driver.api.DriverHealth health() {
            return io.drover.driver.api.DriverHealth.healthy("");
        }

        @Override
        public CompletionStage<io.drover.driver.api.TaskHandle> start(io.drover.driver.api.TaskConfig config) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletionStage<ExitResult> awaitExit(String taskId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void signal(String taskId, String signal) {}

        @Override
        public io.drover.driver.api.TaskStatus inspect(String taskId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void destroy(String taskId) {}
    }.exec("t", cmd, timeout);

    /** @param hcl a job whose first task has the templates */
    TemplateHookHarness(Path dataDir, String hcl, RandomGenerator random) throws Exception {
        this.task = RawExecJobs.parse(hcl).groups().get(0).tasks().get(0);
        this.dirs = AllocDirs.of(dataDir, "a1");
        this.taskDir = Files.createDirectories(dirs.task(task.name()));
        Files.createDirectories(taskDir.resolve("local"));
        Files.createDirectories(dirs.shared());
        TemplateHook.Task actions = new TemplateHook.Task() {
            @Override
            public boolean dead() {
                return dead;
            }

            @Override
            public void restart(TaskEvent event) {
                calls.add(new Call(timers.now(), "restart", event.displayMessage()));
            }

            @Override
            public void signal(TaskEvent event, String signal) {
                calls.add(new Call(timers.now(), "signal", signal));
            }

            @Override
            public void fail(String reason) {
                calls.add(new Call(timers.now(), "fail", reason));
                dead = true;
            }

            @Override
            public void record(TaskEvent event) {
                events.add(event);
            }

            @Override
            public CompletionStage<ExitResult> exec(List<String> command, Duration timeout) {
                calls.add(new Call(timers.now(), "exec", String.join(" ", command) + " (" + timeout + ")"));
                return exec.apply(command, timeout);
            }
        };
        this.hook = new TemplateHook(host(), actions, random);
    }

    private TaskRunnerHost host() {
        return new TaskRunnerHost() {
            @Override
            public String allocId() {
                return "a1";
            }

            @Override
            public java.util.concurrent.Executor serial() {
                return serial;
            }

            @Override
            public io.drover.driver.api.Timers timers() {
                return timers;
            }

            @Override
            public AllocDirs dirs() {
                return dirs;
            }

            @Override
            public Duration maxKillTimeout() {
                return Duration.ofSeconds(30);
            }

            @Override
            public Duration driverStartTimeout() {
                return Duration.ofMinutes(1);
            }

            @Override
            public Optional<TaskDriver> driver(String name) {
                return Optional.empty();
            }

            @Override
            public Map<String, String> runtimeEnv(Task t) {
                return Map.of();
            }

            @Override
            public void taskHandle(TaskRunner runner, io.drover.driver.api.TaskHandle handle) {}

            @Override
            public void afterDurable(Runnable action) {
                serial.execute(action);
            }

            @Override
            public void taskChanged(TaskRunner runner, boolean transition) {}
        };
    }

    /** Runs the prestart hook (the first render) to its end. */
    void render() throws Exception {
        TaskPrep prep = new TaskPrep(task, 1, true);
        CompletableFuture<Void> done = new CompletableFuture<>();
        serial.execute(() -> {
            try {
                hook.prestart(prep).whenComplete((v, e) -> {
                    if (e != null) {
                        done.completeExceptionally(e);
                    } else {
                        done.complete(null);
                    }
                });
            } catch (HookFailure e) {
                done.completeExceptionally(e);
            }
        });
        settle(done::isDone, "the first render");
        done.join();
    }

    /**
     * Drains the serial executor until {@code condition} holds, the pool's work coming back onto it meanwhile; the
     * clock does not move. Fails after 30 s of real time.
     */
    void settle(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            serial.drain();
            if (condition.getAsBoolean()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.onSpinWait();
        }
    }

    /**
     * Runs the next timer (a poll, a splay's end) and then what it leads to, until the watch waits on a timer again
     * (its next poll, or a splay's end).
     */
    void nextTimer() {
        timers.runNextTimer();
        settle(() -> timers.nextDue().isPresent(), "the watch to arm its next timer");
    }

    void kill() {
        dead = true;
    }
}
