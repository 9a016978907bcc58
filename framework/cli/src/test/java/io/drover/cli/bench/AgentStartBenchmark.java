package io.drover.cli.bench;

import io.drover.agent.Agent;
import io.drover.core.config.AgentConfig;
import io.drover.core.config.AgentConfigParser;
import io.drover.core.spec.Job;
import io.drover.core.spec.parse.JobFileParser;
import io.drover.core.state.AllocationState;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Agent start to API ready with N allocation records in the store (issue 4: aim ≤ 2 s for 10,000).
 *
 * <p>{@code prepare DIR N}: an in-process agent (mock driver) runs N/100 batch jobs of 100 allocations each
 * (task {@code main} 1 ms, then poststop {@code cleanup} 1 ms) to the end, so DIR holds N real allocation
 * records (about 10 events each) and {@code DIR/agent.hcl}. {@code measure DIR RUNS LAUNCHER}: RUNS times, a
 * fresh {@code LAUNCHER agent -config DIR/agent.hcl} (the {@code drover} script: the JVM flags and AppCDS
 * archive users get) on a free loopback port; the time from spawning it to the first 200 from
 * {@code GET /v1/allocation/<last id>} (polled every 5 ms), then SIGTERM. Prints each run, the agent's own
 * phase line, and the median. Reproduce: {@code scripts/bench-agent-start.sh} (docs/performance.md).
 */
public final class AgentStartBenchmark {
    private AgentStartBenchmark() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[1]).toAbsolutePath();
        if (args[0].equals("prepare")) {
            prepare(dir, Integer.parseInt(args[2]), Path.of(args.length > 3 ? args[3] : "plugins/dist"));
        } else {
            measure(dir, Integer.parseInt(args[2]), args.length > 3 ? args[3] : "./drover");
        }
    }

    static void prepare(Path dir, int n, Path plugins) throws Exception {
        Files.createDirectories(dir);
        Path config = Files.writeString(dir.resolve("agent.hcl"), """
                data_dir   = "%s"
                plugin_dir = "%s"
                log_level  = "INFO"
                ports {
                  http = 0
                }
                """.formatted(dir.resolve("data"), plugins.toAbsolutePath()));
        long t0 = System.nanoTime();
        String last = null;
        try (Agent agent = Agent.start(AgentConfigParser.parse(config), null)) {
            for (int j = 0; j < n / 100; j++) {
                Job job = JobFileParser.parse("start.hcl", """
                        job "start-%d" {
                          type = "batch"
                          group "g" {
                            count = 100
                            task "main" {
                              driver = "mock"
                              config { run_for = "1ms" }
                            }
                            task "cleanup" {
                              driver = "mock"
                              lifecycle { hook = "poststop" }
                              config { run_for = "1ms" }
                            }
                          }
                        }
                        """.formatted(j).getBytes(StandardCharsets.UTF_8));
                List<AllocationState> placed = agent.jobs().register(job).placed();
                CompletableFuture.allOf(placed.stream().map(a -> agent.engine().terminal(a.id()))
                        .toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
                last = placed.get(placed.size() - 1).id();
            }
        }
        Files.writeString(dir.resolve("last-alloc"), last);
        System.out.printf("prepared %,d allocations in %s in %.1f s%n", n, dir, (System.nanoTime() - t0) / 1e9);
    }

    static void measure(Path dir, int runs, String launcher) throws Exception {
        String allocId = Files.readString(dir.resolve("last-alloc")).trim();
        String base = Files.readString(dir.resolve("agent.hcl")).replaceAll("(?s)ports \\{.*?\\}\\s*", "");
        List<Double> ms = new ArrayList<>();
        List<Double> cpuMs = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            int port;
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            }
            Path config = Files.writeString(dir.resolve("agent-run.hcl"), base + "ports {\n  http = " + port + "\n}\n");
            Path log = dir.resolve("agent-run.log");
            long t0 = System.nanoTime();
            Process p = new ProcessBuilder(launcher, "agent", "-config", config.toString())
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(log.toFile()).start();
            try {
                URL url = new URL("http://127.0.0.1:" + port + "/v1/allocation/" + allocId);
                while (!answers(url)) {
                    if (!p.isAlive()) {
                        throw new IllegalStateException("agent exited: " + Files.readString(log));
                    }
                    if (System.nanoTime() - t0 > TimeUnit.SECONDS.toNanos(120)) {
                        throw new IllegalStateException("agent not ready in 120 s: " + Files.readString(log));
                    }
                    Thread.sleep(5); // a benchmark driver polling a child process, not a test
                }
                double took = (System.nanoTime() - t0) / 1e6;
                long cpu = cpuMillis(p.pid());
                ms.add(took);
                cpuMs.add((double) cpu);
                System.out.printf("run %d: API ready %.0f ms after spawn; agent CPU time (all threads) %d ms%n",
                        i + 1, took, cpu);
            } finally {
                p.destroy();
                if (!p.waitFor(60, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            }
            Files.readAllLines(log).stream().filter(l -> l.contains("restored "))
                    .forEach(l -> System.out.println("  " + l));
        }
        Collections.sort(ms);
        Collections.sort(cpuMs);
        System.out.printf("agent start to API ready, %d runs: median %.0f ms, min %.0f ms, max %.0f ms; "
                + "CPU time median %.0f ms%n", runs, ms.get(ms.size() / 2), ms.get(0), ms.get(ms.size() - 1),
                cpuMs.get(cpuMs.size() / 2));
    }

    /**
     * User + system CPU time of a process so far (/proc/PID/stat, clock ticks of 10 ms; the launcher execs java,
     * so the pid is the JVM's): less sensitive than wall time to other load on the machine.
     */
    static long cpuMillis(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10;
    }

    private static boolean answers(URL url) {
        try {
            HttpURLConnection c = (HttpURLConnection) url.openConnection();
            c.setConnectTimeout(1000);
            c.setReadTimeout(10_000);
            int status = c.getResponseCode();
            c.getInputStream().readAllBytes();
            c.disconnect();
            return status == 200;
        } catch (IOException e) {
            return false;
        }
    }
}
