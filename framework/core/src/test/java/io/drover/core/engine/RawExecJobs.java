package io.drover.core.engine;

import io.drover.core.config.GcKillPolicy;
import io.drover.core.driver.DriverCatalog;
import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.spec.Job;
import io.drover.core.spec.parse.JobFileParser;
import io.drover.core.state.AllocationState;
import io.drover.core.state.TaskState;
import io.drover.driver.api.TaskDriver;
import io.drover.plugins.rawexec.RawExecDriver;
import io.drover.process.ProcessLeakCheck;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Runs HCL job files on a real engine with the real raw_exec driver, for tests of what tasks see at run time.
 * A job's tasks should carry {@link #markerEnv()} in their env so that {@link ProcessLeakCheck} sees them.
 */
final class RawExecJobs implements AutoCloseable {
    /**
     * An env block line that marks a task's processes for the leak check: the CURRENT test's marker, so call it
     * while the test runs, never from a static initialiser (a constant would keep the marker of whichever test
     * first loaded the class, and every later test's leak check would be blind to its own tasks).
     */
    static String markerEnv() {
        return ProcessLeakCheck.MARKER_VAR + " = \"" + ProcessLeakCheck.env().get(ProcessLeakCheck.MARKER_VAR) + "\"";
    }

    final EngineRuntime runtime;
    final Engine engine;
    final Path dataDir;

    RawExecJobs(Path dataDir) throws Exception {
        this(dataDir, 2);
    }

    /** @param workers engine threads (1: any blocking on an engine thread would hold every allocation) */
    RawExecJobs(Path dataDir, int workers) throws Exception {
        this(dataDir, EngineRuntime.real(workers));
    }

    /** On {@code runtime} (a test's own timers around a real pool), closed with this. */
    RawExecJobs(Path dataDir, EngineRuntime runtime) throws Exception {
        this(dataDir, runtime, java.util.Map.of());
    }

    /** With {@code nodeVars} as the node's interpolation variables ({@link EngineConfig#nodeVars}). */
    RawExecJobs(Path dataDir, EngineRuntime runtime, java.util.Map<String, String> nodeVars) throws Exception {
        this.dataDir = dataDir;
        this.runtime = runtime;
        RawExecDriver rawExec = RawExecAgent.driver(runtime);
        DriverCatalog catalog = new DriverCatalog() {
            @Override
            public Optional<TaskDriver> driver(String name) {
                return Optional.<TaskDriver>of(rawExec).filter(d -> d.name().equals(name));
            }

            @Override
            public Set<String> names() {
                return Set.of("raw_exec");
            }
        };
        this.engine = new Engine(new EngineConfig(dataDir, Duration.ofSeconds(30), GcKillPolicy.PRESERVE_STATES)
                .withNode(nodeVars), catalog, runtime);
    }

    /** Polls {@code condition} until it holds, failing after 30 s with {@code what}: awaiting an event, no sleep. */
    static void await(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        java.time.Instant deadline = java.time.Instant.now().plusSeconds(30);
        while (!condition.getAsBoolean()) {
            if (java.time.Instant.now().isAfter(deadline)) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(10); // polling a condition with a deadline
        }
    }

    /** Replaces {@code file}'s content atomically, as an editor or a deploy tool does (a template input change). */
    static void change(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".new");
        Files.writeString(tmp, text);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    static Job parse(String hcl) throws Exception {
        return JobFileParser.parse("job.hcl", hcl.getBytes(StandardCharsets.UTF_8));
    }

    AllocationState run(String hcl) throws Exception {
        AllocationState placed = engine.submit(parse(hcl)).get(0);
        return engine.terminal(placed.id()).get(60, java.util.concurrent.TimeUnit.SECONDS);
    }

    /** The current state of {@code task} in allocation {@code allocId} (which must exist). */
    TaskState task(String allocId, String task) {
        return engine.allocation(allocId).orElseThrow().taskStates().get(task);
    }

    /** {@code task}'s events of one type so far, oldest first. */
    List<TaskEvent> events(String allocId, String task, TaskEventType type) {
        return task(allocId, task).events().stream().filter(e -> e.type() == type).toList();
    }

    /** Waits until {@code task} has started {@code runs} time(s), and returns its task directory. */
    Path awaitRuns(String allocId, String task, int runs) throws InterruptedException, UnsafePathException {
        await(() -> events(allocId, task, TaskEventType.STARTED).size() >= runs, task + "'s run " + runs);
        return AllocDirs.of(dataDir, allocId).task(task);
    }

    /** {@code p}'s content, or "" while it does not exist (or cannot be read yet): for polling a task's output. */
    static String readOrEmpty(Path p) {
        try {
            return Files.exists(p) ? Files.readString(p) : "";
        } catch (IOException e) {
            return "";
        }
    }

    String stdout(AllocationState alloc, String task) throws IOException {
        return Files.readString(AllocDirs.of(dataDir, alloc.id()).log(task, "stdout"));
    }

    @Override
    public void close() throws Exception {
        engine.close();
        runtime.close();
    }
}
