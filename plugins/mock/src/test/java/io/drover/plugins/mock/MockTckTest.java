package io.drover.plugins.mock;

import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.TaskStatus;
import io.drover.driver.api.Timers;
import io.drover.driver.tck.DriverTck;
import io.drover.driver.tck.VirtualTimers;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * The mock driver against the driver TCK on the TCK's virtual clock: time moves only when a stage is awaited (the
 * next timer runs) or the TCK lets time pass, so every run is deterministic and takes no wall-CLOCK time.
 */
class MockTckTest extends DriverTck {
    /** One clock for the class: the TCK shares one driver among the class's tests. */
    private static final VirtualTimers CLOCK = new VirtualTimers(Instant.parse("2026-01-01T00:00:00Z"));

    @Override
    protected TaskDriver createDriver() {
        return new MockDriver();
    }

    @Override
    protected Timers timers() {
        return CLOCK;
    }

    @Override
    protected Map<String, Object> exitsWith(int code) {
        return Map.of("run_for", "1s", "exit_code", code);
    }

    @Override
    protected Map<String, Object> runsUntilKilled() {
        return Map.of("run_for", "1h");
    }

    @Override
    protected Optional<Map<String, Object>> ignoresTerminatingSignals() {
        return Optional.of(Map.of("run_for", "1h", "ignore_signals", true));
    }

    /** Runs the CLOCK's timers, in order, until the stage completes. */
    @Override
    protected <T> T await(CompletionStage<T> stage) throws Exception {
        CompletableFuture<T> f = stage.toCompletableFuture();
        while (!f.isDone() && CLOCK.runNextTimer()) {
            // each timer may complete it
        }
        return f.get(1, TimeUnit.SECONDS);
    }

    @Override
    protected boolean letTimePass(TaskDriver d, String taskId, Duration duration) throws Exception {
        CLOCK.advance(duration);
        return !d.awaitExit(taskId).toCompletableFuture().isDone()
                && d.inspect(taskId).state() == TaskStatus.State.RUNNING;
    }
}
