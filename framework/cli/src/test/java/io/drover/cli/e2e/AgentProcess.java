package io.drover.cli.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code drover agent} in a child JVM (the test classpath, {@code io.drover.cli.Main agent -config F}),
 * its stderr in a file. {@link #awaitAddress} reads the banner's {@code API: } line (the config binds port 0).
 * {@link #close()} kills it with SIGKILL and waits: tests call it from {@code @AfterEach}.
 */
final class AgentProcess implements AutoCloseable {
    private final Process process;
    private final Path stderr;

    private AgentProcess(Process process, Path stderr) {
        this.process = process;
        this.stderr = stderr;
    }

    static AgentProcess start(Path config, Path stderr) throws IOException {
        return start(List.of(), config, stderr);
    }

    /**
     * As {@link #start(Path, Path)}, the JVM started through {@code prefix} (e.g. {@code nsenter -t PID -m --},
     * which execs it: the process is still the agent's JVM).
     */
    static AgentProcess start(List<String> prefix, Path config, Path stderr) throws IOException {
        return start(prefix, List.of(), config, stderr);
    }

    /** As {@link #start(List, Path, Path)}, with these JVM options (e.g. {@code -Xmx64m}) before the class path. */
    static AgentProcess start(List<String> prefix, List<String> jvmOptions, Path config, Path stderr)
            throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // a kill -9'd agent cannot delete what it extracted to java.io.tmpdir (jffi, the exit-status shim): keep
        // that in the test's directory
        Path tmp = Files.createDirectories(stderr.resolveSibling("agent-tmp"));
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"), "io.drover.cli.Main", "agent", "-config",
                config.toString()));
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(stderr.toFile());
        pb.environment().remove("DROVER_ADDR");
        return new AgentProcess(pb.start(), stderr);
    }

    /** The API address from the banner; fails if the agent exits first or does not start in time. */
    String awaitAddress(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<String> line = stderr().lines().filter(l -> l.startsWith("    API: ")).findFirst();
            if (line.isPresent()) {
                return line.get().substring("    API: ".length()).split(" ")[0];
            }
            if (!process.isAlive()) {
                throw new AssertionError("agent exited " + process.exitValue() + ": " + stderr());
            }
            Thread.sleep(50);
        }
        throw new AssertionError("agent did not start within " + timeout + ": " + stderr());
    }

    /** Until the agent's stderr (its log) contains {@code fragment}; fails after {@code timeout}. */
    void awaitStderr(String fragment, Duration timeout) throws Exception {
        Poll.until("agent log line '" + fragment + "'", timeout, this::stderr, s -> s.contains(fragment));
    }

    String stderr() throws IOException {
        return Files.exists(stderr) ? Files.readString(stderr) : "";
    }

    Process process() {
        return process;
    }

    /** {@code kill -9}: the agent gets no chance to flush or close anything. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            throw new AssertionError("agent still alive 20 s after SIGKILL");
        }
    }

    /** SIGTERM: the agent's graceful stop. */
    void terminate() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            throw new AssertionError("agent still alive 20 s after SIGTERM");
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
