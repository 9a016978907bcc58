package io.drover.driver.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The {@link TaskDriver} contract as one abstract suite: a driver's test extends it and says how to make a
 * task that exits with a code and one that runs until it is killed. Every step goes through the interface
 * only. Shared as this module's test-jar.
 */
public abstract class TaskDriverContract {
    private static final AtomicInteger IDS = new AtomicInteger();

    /** The driver under test, already initialised. */
    protected abstract TaskDriver driver();

    /** A task config whose task exits by itself with {@code code}. */
    protected abstract Map<String, Object> exitsWith(int code);

    /** A task config whose task runs until it is signalled. */
    protected abstract Map<String, Object> runsUntilKilled();

    /** One run of a task with the given id and config (directories and log paths as the host gives them). */
    protected abstract TaskConfig task(String taskId, Map<String, Object> config);

    /** Waits for a stage; a driver on a virtual clock advances its clock here. */
    protected <T> T await(CompletionStage<T> stage) throws Exception {
        return stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    protected String newId() {
        return "contract/" + getClass().getSimpleName() + "/" + IDS.incrementAndGet();
    }

    private String started(Map<String, Object> config) throws Exception {
        String id = newId();
        TaskHandle handle = await(driver().start(task(id, config)));
        assertThat(handle.taskId()).isEqualTo(id);
        assertThat(handle.driver()).isEqualTo(driver().name());
        return id;
    }

    @Test
    void startThenAwaitExitReportsTheExitCode() throws Exception {
        String id = started(exitsWith(3));
        ExitResult exit = await(driver().awaitExit(id));
        assertThat(exit.exitCode()).isEqualTo(3);
        assertThat(exit.signal()).isZero();
        assertThat(await(driver().awaitExit(id))).isEqualTo(exit); // any number of times, same result
        assertThat(driver().inspect(id).state()).isEqualTo(TaskStatus.State.EXITED);
        assertThat(driver().inspect(id).exit()).isEqualTo(exit);
        driver().destroy(id);
    }

    @Test
    void successIsExitCodeZero() throws Exception {
        String id = started(exitsWith(0));
        assertThat(await(driver().awaitExit(id)).successful()).isTrue();
        driver().destroy(id);
    }

    @Test
    void sigkillEndsARunningTask() throws Exception {
        String id = started(runsUntilKilled());
        assertThat(driver().inspect(id).state()).isEqualTo(TaskStatus.State.RUNNING);
        assertThat(driver().inspect(id).exit()).isNull();
        driver().signal(id, "SIGKILL");
        ExitResult exit = await(driver().awaitExit(id));
        assertThat(exit.signal()).isEqualTo(9);
        assertThat(exit.exitCode()).isEqualTo(137);
        driver().signal(id, "SIGTERM"); // exited: a no-op
        driver().destroy(id);
    }

    @Test
    void unknownSignalIsADriverException() throws Exception {
        String id = started(runsUntilKilled());
        assertThatThrownBy(() -> driver().signal(id, "SIGNOPE")).isInstanceOf(DriverException.class)
                .isNotInstanceOf(TaskNotFoundException.class);
        driver().signal(id, "KILL");
        await(driver().awaitExit(id));
        driver().destroy(id);
    }

    @Test
    void destroyIsIdempotentAndForgetsTheTask() throws Exception {
        String id = started(runsUntilKilled());
        driver().destroy(id); // kills a running task
        driver().destroy(id);
        assertThatThrownBy(() -> driver().inspect(id)).isInstanceOf(TaskNotFoundException.class);
        driver().destroy("never-started");
    }

    @Test
    void unknownIdsAreTaskNotFound() {
        assertThatThrownBy(() -> driver().awaitExit("nope")).isInstanceOf(TaskNotFoundException.class);
        assertThatThrownBy(() -> driver().signal("nope", "SIGTERM")).isInstanceOf(TaskNotFoundException.class);
        assertThatThrownBy(() -> driver().inspect("nope")).isInstanceOf(TaskNotFoundException.class);
    }

    @Test
    void validConfigsHaveNoProblems() {
        assertThat(driver().validateConfig(exitsWith(0))).isEmpty();
        assertThat(driver().validateConfig(runsUntilKilled())).isEmpty();
    }
}
