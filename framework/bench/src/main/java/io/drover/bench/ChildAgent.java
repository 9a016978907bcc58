package io.drover.bench;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code drover agent -config DIR/agent.hcl} started through the {@code drover} launcher, as a user starts it
 * (the launcher's JVM flags and the agent's AppCDS archive), in its own directory: a free loopback port, the
 * mock and raw_exec plugins of the bench, stderr to {@code DIR/agent.log}. {@link #close} stops it with SIGTERM
 * (SIGKILL after 60 s) and checks that neither it nor any process it started is left. One thread uses it.
 */
final class ChildAgent implements AutoCloseable {
    private static final Duration READY = Duration.ofSeconds(120);

    final int port;
    private final Process process;
    private final Path log;
    private final long spawnedAt;

    private ChildAgent(int port, Process process, Path log, long spawnedAt) {
        this.port = port;
        this.process = process;
        this.log = log;
        this.spawnedAt = spawnedAt;
    }

    /**
     * Writes {@code dir/agent.hcl} (data_dir {@code dataDir}) and spawns the agent; returns at once.
     *
     * @param dir the agent's working directory, config and log (a process left running is found by its cwd)
     */
    static ChildAgent spawn(BenchEnv env, Path dir, Path dataDir, String logLevel) throws IOException {
        if (env.droverHome() == null) {
            throw new IllegalStateException("drover.home is not set: run through the ./drover launcher");
        }
        Path launcher = env.droverHome().resolve("drover");
        if (!Files.isExecutable(launcher)) {
            throw new IllegalStateException("no launcher at " + launcher);
        }
        Files.createDirectories(dir);
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path config = Files.writeString(dir.resolve("agent.hcl"), """
                data_dir   = "%s"
                plugin_dir = "%s"
                log_level  = "%s"
                ports {
                  http = %d
                }
                """.formatted(dataDir.toAbsolutePath(), env.pluginDir().toAbsolutePath(), logLevel, port));
        Path log = dir.resolve("agent.log");
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(launcher.toString(), "agent", "-config", config.toString())
                .directory(dir.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(log.toFile()).start();
        return new ChildAgent(port, p, log, t0);
    }

    /**
     * Polls {@code GET path} every 5 ms until it answers 200; returns the seconds since the spawn.
     *
     * @throws IllegalStateException naming the agent's last log line when it exits or is not ready in 120 s
     */
    double awaitOk(String path) throws IOException {
        while (true) {
            try (HttpConn c = new HttpConn(port)) {
                if (c.get(path) == 200) {
                    return (System.nanoTime() - spawnedAt) / 1e9;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("the agent exited " + process.exitValue() + " before GET " + path
                        + " answered: " + lastLogLine() + " (" + log + ")");
            }
            if (System.nanoTime() - spawnedAt > READY.toNanos()) {
                throw new IllegalStateException("GET " + path + " did not answer 200 in " + READY.toSeconds()
                        + " s: " + lastLogLine() + " (" + log + ")");
            }
            LockSupport.parkNanos(5_000_000); // polling a child process's port: there is no event to await
        }
    }

    boolean alive() {
        return process.isAlive();
    }

    /**
     * User + system CPU time of the agent's JVM so far (/proc/PID/stat, clock ticks of 10 ms; the launcher execs
     * java, so the pid is the JVM's): less sensitive than wall time to other load on the machine.
     */
    double cpuSeconds() throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0;
    }

    /** The agent's log lines containing {@code text}. */
    List<String> logLines(String text) throws IOException {
        return Files.readAllLines(log).stream().filter(l -> l.contains(text)).toList();
    }

    private String lastLogLine() {
        try {
            List<String> lines = Files.readAllLines(log);
            return lines.isEmpty() ? "(its log is empty)" : lines.get(lines.size() - 1).strip();
        } catch (IOException e) {
            return "(its log cannot be read: " + e.getMessage() + ")";
        }
    }

    /** SIGTERM, then SIGKILL after 60 s; throws when the agent or a process it started is still alive. */
    @Override
    public void close() throws InterruptedException {
        List<ProcessHandle> started = process.descendants().toList();
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        List<String> left = started.stream().filter(ProcessHandle::isAlive)
                .map(h -> h.pid() + " " + h.info().commandLine().orElse("?")).toList();
        started.forEach(ProcessHandle::destroyForcibly);
        if (process.isAlive() || !left.isEmpty()) {
            throw new IllegalStateException("left running after the agent's stop: " + (process.isAlive()
                    ? "the agent (pid " + process.pid() + ")" : "processes it started: " + left));
        }
    }
}
