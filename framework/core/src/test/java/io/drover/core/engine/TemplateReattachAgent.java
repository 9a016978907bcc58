package io.drover.core.engine;

import io.drover.core.event.TaskEventType;
import io.drover.core.spec.Job;
import io.drover.core.store.JournalStore;
import io.drover.process.ProcessLeakCheck;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The agent {@link TemplateReattachTest} kills with {@code kill -9}: a durable engine with the real raw_exec driver
 * ({@link RawExecAgent#engine}) runs {@link #job}, prints {@link #STARTED} once every task's Started event is durable,
 * then waits to be killed.
 */
final class TemplateReattachAgent {
    static final String STARTED = "started";
    /** One group (and task) per case, each in its own allocation: restart, noop, changed while no agent ran, once. */
    static final String RESTART = "restart";
    static final String NOOP = "noop";
    static final String DOWN = "down";
    /** Every template {@code once} (Nomad wants all or none): rendered before the first run, never watched. */
    static final String ONCE = "once";
    static final int ALLOCATIONS = 4;

    private TemplateReattachAgent() {}

    /**
     * Each task runs until killed; {@code local/in.txt} is the artifact {@code source} (fetched once, before the
     * first run: what the test writes there later stays), {@code local/out.txt} renders it as a {@code source} with the group's
     * change_mode (restart for {@link #DOWN}), {@code local/copy.txt} reads it with {@code file} (noop): the test
     * removes it while no agent runs, and its re-appearance shows the re-attach's render has run.
     */
    static Job job(String marker, Path source) throws Exception {
        StringBuilder groups = new StringBuilder();
        for (String name : new String[] {RESTART, NOOP, DOWN, ONCE}) {
            groups.append("""
                      group "%1$s" {
                        restart {
                          attempts = 0
                          mode = "fail"
                        }
                        task "%1$s" {
                          driver = "raw_exec"
                          artifact {
                            source = "%5$s"
                            destination = "local/"
                          }
                          template {
                            source = "local/in.txt"
                            destination = "local/out.txt"
                            change_mode = "%2$s"
                            splay = "0s"
                            once = %6$s
                          }
                          template {
                            data = "copy={{ file \\"local/in.txt\\" }}"
                            destination = "local/copy.txt"
                            change_mode = "noop"
                            once = %6$s
                          }
                          env {
                            %3$s = "%4$s"
                          }
                          config {
                            command = "sh"
                            args = ["-c", "exec sleep 1000"]
                          }
                        }
                      }
                    """.formatted(name, name.equals(NOOP) ? "noop" : "restart", ProcessLeakCheck.MARKER_VAR,
                    marker, source, name.equals(ONCE)));
        }
        return RawExecJobs.parse("job \"tr\" {\n" + groups + "}\n");
    }

    /** Args: data dir, the artifact's source file. */
    public static void main(String[] args) throws Exception {
        Path dataDir = Path.of(args[0]);
        EngineRuntime runtime = EngineRuntime.real(2);
        JournalStore store = JournalStore.open(dataDir.resolve("state"));
        Engine engine = RawExecAgent.engine(dataDir, store, RawExecAgent.driver(runtime), runtime);
        Set<String> started = ConcurrentHashMap.newKeySet();
        AtomicBoolean printed = new AtomicBoolean();
        engine.addListener(state -> {
            if (state.taskStates().values().stream().allMatch(t -> t.events().stream()
                    .anyMatch(e -> e.type() == TaskEventType.STARTED))) {
                started.add(state.id());
            }
            if (started.size() == ALLOCATIONS && printed.compareAndSet(false, true)) {
                System.out.println(STARTED);
                System.out.flush();
            }
        });
        engine.submit(job(System.getenv(ProcessLeakCheck.MARKER_VAR), Path.of(args[1])));
        new CountDownLatch(1).await(); // until kill -9
    }
}
