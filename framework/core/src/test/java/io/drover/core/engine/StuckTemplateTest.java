package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.driver.api.Timers;
import io.drover.process.ProcessLeakCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16: template rendering never blocks an engine thread. What makes a render stuck in the real code is a
 * template over a Nomad variable that does not exist: like Nomad's task, it waits for it, as long as it takes
 * ({@link TemplateHook}: one "Missing" event, a new try every {@link TemplateWatch#POLL} on the timer, a pool job
 * each). With the engine's pool at ONE thread, another allocation runs to its end meanwhile, and a stop ends the
 * stuck one: the task never started, its events recorded, the retries abandoned (none is pending once the stop
 * is through, and the variable written afterwards renders nothing), no hook thread left rendering, no process left
 * (the leak check). The artifact half (a download from an HTTP server that never finishes its answer) is
 * {@link ArtifactEngineTest#aHangingDownloadBlocksNoEngineThreadAndAStopCancelsIt}.
 */
@ExtendWith(ProcessLeakCheck.class)
class StuckTemplateTest {
    @TempDir
    Path dataDir;

    /** Real timers, counting the template hook's timers (scheduled from its code) and those of them that ran. */
    private static final class CountingTimers implements Timers {
        private final Timers real;
        final AtomicInteger scheduled = new AtomicInteger();
        final AtomicInteger ran = new AtomicInteger();

        CountingTimers(Timers real) {
            this.real = real;
        }

        @Override
        public Instant now() {
            return real.now();
        }

        @Override
        public Cancellable schedule(Duration delay, Runnable action) {
            boolean template = StackWalker.getInstance().walk(s -> s.anyMatch(
                    f -> f.getClassName().equals(TemplateHook.class.getName())));
            if (!template) {
                return real.schedule(delay, action);
            }
            scheduled.incrementAndGet();
            java.util.concurrent.atomic.AtomicBoolean over = new java.util.concurrent.atomic.AtomicBoolean();
            Cancellable c = real.schedule(delay, () -> {
                try {
                    action.run();
                } finally {
                    if (over.compareAndSet(false, true)) {
                        ran.incrementAndGet();
                    }
                }
            });
            return () -> {
                c.cancel(); // a timer cancelled before its run never runs: counted as over
                if (over.compareAndSet(false, true)) {
                    ran.incrementAndGet();
                }
            };
        }
    }

    private static String job(String id, String template, String script) {
        return """
                job "%s" {
                  type = "batch"
                  group "g" {
                    task "t" {
                      driver = "raw_exec"
                      %s
                      config {
                        command = "sh"
                        args = ["-c", "%s"]
                      }
                      env {
                        %s
                      }
                    }
                  }
                }
                """.formatted(id, template, script, RawExecJobs.markerEnv());
    }

    private static List<TaskEventType> types(AllocationState a) {
        return a.taskStates().get("t").events().stream().map(TaskEvent::type).toList();
    }

    /** drover-hook-N threads that are inside a template render or its hook's code now. */
    private static List<String> hookThreadsRendering() {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> e.getKey().getName().startsWith("drover-hook-"))
                .filter(e -> Arrays.stream(e.getValue()).anyMatch(f -> f.getClassName().startsWith(
                        TemplateRender.class.getName()) || f.getClassName().startsWith(TemplateHook.class.getName())))
                .map(e -> e.getKey().getName()).toList();
    }

    @Test
    void aRenderWaitingForeverHoldsNoEngineThreadAndAStopEndsIt() throws Exception {
        EngineRuntime real = EngineRuntime.real(1);
        CountingTimers timers = new CountingTimers(real.timers());
        try (RawExecJobs jobs = new RawExecJobs(dataDir, new EngineRuntime(timers, real.executor(), real))) {
            String stuck = jobs.engine.submit(RawExecJobs.parse(job("stuck", """
                    template {
                      data        = "{{ with nomadVar \\"nomad/jobs/stuck\\" }}v={{ .v }}{{ end }}"
                      destination = "local/out.txt"
                    }
                    """, "echo ran"))).get(0).id();
            RawExecJobs.await(() -> jobs.task(stuck, "t").events().stream().anyMatch(
                    e -> e.displayMessage().contains("Missing: nomad.var.block(nomad/jobs/stuck@default)")),
                    "the event saying what the template waits for");
            RawExecJobs.await(() -> timers.ran.get() >= 1, "a second try of the render, on the timer");

            // the only engine thread is free: another allocation runs from start to end while the render waits
            AllocationState other = jobs.run(job("quick", "", "echo quick"));
            assertThat(other.clientStatus()).isEqualTo(ClientStatus.COMPLETE);
            assertThat(jobs.stdout(other, "t")).isEqualTo("quick\n");
            AllocationState waiting = jobs.engine.allocation(stuck).orElseThrow();
            assertThat(waiting.clientStatus()).as("still waiting for its variable").isEqualTo(ClientStatus.PENDING);
            assertThat(types(waiting)).doesNotContain(TaskEventType.STARTED);

            jobs.engine.stop(stuck);
            AllocationState stopped = jobs.engine.terminal(stuck).get(30, TimeUnit.SECONDS);
            assertThat(types(stopped)).contains(TaskEventType.RECEIVED, TaskEventType.TASK_SETUP,
                    TaskEventType.HOOK_MESSAGE, TaskEventType.KILLED)
                    .doesNotContain(TaskEventType.STARTED, TaskEventType.SETUP_FAILURE);
            assertThat(stopped.taskStates().get("t").failed()).isFalse();

            // the retries are abandoned: the one pending at the stop runs and arms no other
            RawExecJobs.await(() -> timers.ran.get() == timers.scheduled.get(), "the last pending try");
            int tries = timers.scheduled.get();
            jobs.engine.variables().put("default", "nomad/jobs/stuck", Map.of("v", "1"), null);
            assertThat(jobs.run(job("witness", "", "echo witness")).clientStatus()).isEqualTo(ClientStatus.COMPLETE);
            assertThat(timers.scheduled.get()).as("no try armed after the stop").isEqualTo(tries);
            assertThat(hookThreadsRendering()).as("no hook thread left rendering").isEmpty();
            Path out = AllocDirs.of(dataDir, stuck).task("t").resolve("local/out.txt");
            assertThat(Files.exists(out)).as("nothing rendered after the stop").isFalse();
        }
    }
}
