package io.drover.bench;

import io.drover.agent.Agent;
import io.drover.core.config.AgentConfigParser;
import io.drover.core.spec.Job;
import io.drover.core.state.AllocationState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Issue 4: agent start to API ready with 10,000 (quick: 1,000) allocation records in the store, aim <= 2 s for
 * 10,000. The store is prepared once per scratch dir by an in-process agent (mock driver) that runs batch jobs of
 * 100 allocations (task {@code main} 1 ms, then poststop {@code cleanup} 1 ms) to their end: real records of about
 * 10 events each (its {@code gc_max_allocs} is above N: no GC while it runs), kept for a later run with the
 * same {@code --work-dir}. Then {@code drover agent} is started
 * through the launcher ({@link ChildAgent}) once untimed (it records the agent's AppCDS archive when there is
 * none), then {@code runs} times on the prepared store, each run after one on an empty store (the same-run
 * baseline): the time from the spawn to the first 200 from {@code GET /v1/allocation/<last id>}, and the agent
 * JVM's CPU time by then, and the restore time the agent logs ({@code restored ... in N ms}). Parameters: {@code agent_start.allocations}, {@code agent_start.runs}.
 */
final class AgentStartBench implements Bench {
    private static final int PER_JOB = 100;
    /** The agent's line "restored N allocation(s) of J job(s) from DIR in MS ms (store open ...)". */
    private static final Pattern RESTORED = Pattern.compile("restored .*? in (\\d+) ms");

    @Override
    public String name() {
        return "agent_start";
    }

    @Override
    public List<Param> params() {
        return List.of(Param.count("allocations", "allocation records in the store (default 10000, quick 1000)"),
                Param.count("runs", "timed starts on each store (default 5, quick 1)"));
    }

    @Override
    public List<Figure> run(BenchEnv env) throws Exception {
        int n = env.count(this, "allocations", env.size(1_000, 10_000));
        int runs = env.count(this, "runs", env.size(1, 5));
        Path prepared = env.workDir().resolve("agent-start-" + n);
        String lastAlloc = prepare(env, prepared, n);
        Path empty = env.workDir().resolve("agent-start-empty");
        String path = "/v1/allocation/" + lastAlloc;
        start(env, prepared, path); // untimed: records the AppCDS archive if there is none, warms the page cache
        List<Start> full = new ArrayList<>();
        List<Start> none = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            none.add(start(env, empty, "/v1/jobs"));
            full.add(start(env, prepared, path));
            env.progress().printf("  run %d: API ready %.2f s after spawn (CPU %.2f s, restore %.2f s); empty store "
                    + "%.2f s%n", i + 1, full.get(i).wall(), full.get(i).cpu(), full.get(i).restore(),
                    none.get(i).wall());
        }
        String of = " (" + String.format("%,d", n) + " allocations in the store, median of " + runs + ")";
        String baseline = String.format("empty store %.2f s", median(none, Start::wall));
        double wall = median(full, Start::wall);
        return List.of(n >= 10_000
                        ? Figure.atMost(name(), "drover agent start to API ready" + of, wall, "s", baseline, 2)
                        : Figure.info(name(), "drover agent start to API ready" + of, wall, "s",
                                baseline + "; aim for 10,000: <= 2 s"),
                Figure.info(name(), "agent CPU time (all threads) until ready" + of, median(full, Start::cpu), "s",
                        String.format("empty store %.2f s", median(none, Start::cpu))),
                Figure.info(name(), "restore, as the agent logs it" + of, median(full, Start::restore), "s",
                        String.format("empty store %.2f s", median(none, Start::restore))));
    }

    /** One start: seconds from the spawn to ready, CPU seconds of the agent by then, its logged restore time. */
    private record Start(double wall, double cpu, double restore) {}

    private static double median(List<Start> starts, ToDoubleFunction<Start> f) {
        return Percentiles.of(starts.stream().map(s -> f.applyAsDouble(s)).toList()).p(50);
    }

    /** One start of the agent on {@code dir/data}, stopped once {@code readyPath} answers. */
    private static Start start(BenchEnv env, Path dir, String readyPath) throws Exception {
        double wall;
        double cpu;
        ChildAgent agent = ChildAgent.spawn(env, dir, dir.resolve("data"), "INFO");
        try (agent) {
            wall = agent.awaitOk(readyPath);
            cpu = agent.cpuSeconds();
        }
        double restore = agent.logLines("restored ").stream().map(RESTORED::matcher).filter(Matcher::find)
                .mapToDouble(m -> Long.parseLong(m.group(1)) / 1e3).findFirst().orElse(Double.NaN);
        return new Start(wall, cpu, restore);
    }

    /**
     * Fills {@code dir/data} with {@code n} finished allocations through an in-process agent, unless a previous
     * run did ({@code dir/last-alloc}); returns the id of the last one placed.
     */
    private static String prepare(BenchEnv env, Path dir, int n) throws Exception {
        Path marker = dir.resolve("last-alloc");
        if (Files.isRegularFile(marker)) {
            env.progress().printf("  reusing the %,d allocations prepared in %s%n", n, dir);
            return Files.readString(marker).strip();
        }
        Files.createDirectories(dir);
        Path config = Files.writeString(dir.resolve("prepare.hcl"), """
                data_dir   = "%s"
                plugin_dir = "%s"
                ports {
                  http = 0
                }
                client {
                  gc_max_allocs = %d
                }
                """.formatted(dir.resolve("data").toAbsolutePath(), env.pluginDir().toAbsolutePath(), n + PER_JOB));
        long t0 = System.nanoTime();
        String last = null;
        try (Agent agent = Agent.start(AgentConfigParser.parse(config), null)) {
            for (int j = 0; j * PER_JOB < n; j++) {
                Job job = EngineHarness.job("start-" + j, """
                        job "start-%d" {
                          type = "batch"
                          group "g" {
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
                        """.formatted(j), Math.min(PER_JOB, n - j * PER_JOB));
                List<AllocationState> placed = agent.jobs().register(job).placed();
                CompletableFuture.allOf(placed.stream().map(a -> agent.engine().terminal(a.id()))
                        .toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
                last = placed.get(placed.size() - 1).id();
            }
        }
        Files.writeString(marker, last);
        env.progress().printf("  prepared %,d allocations in %s in %.1f s%n", n, dir, (System.nanoTime() - t0) / 1e9);
        return last;
    }
}
