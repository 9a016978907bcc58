package io.drover.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Issue 18, item 1: the wall time of client commands run as a user runs them, through the {@code drover}
 * launcher (its staleness check, JVM flags and AppCDS archive), against a live {@code drover agent}
 * ({@link ChildAgent}) holding a few finished mock allocations: {@code alloc status ID}, {@code job status ID},
 * {@code alloc logs ID TASK}, {@code plugin status}, {@code --help}. Beside them, in the same run, the floor: a
 * JVM hello world ({@link JvmFloor}) with the JVM flags the launcher gives client commands (its
 * {@code framework/cli/jvm-client.args}, a java {@code @argfile}), without an application archive.
 * Every command is run once untimed (that records the CLI's archive when the build is new), then {@code runs}
 * times, interleaved (each round in a rotated order, so that load on the machine falls on all alike); each
 * figure is the median with the spread (min-max) beside it, and its ratio to the floor's median; beside them the
 * mean CPU time (user + sys) of each, which a busy machine stretches far less than wall time. A command that
 * exits non-zero or prints nothing fails the bench. Parameters: {@code cli.runs}, {@code cli.allocations}.
 */
final class CliBench implements Bench {
    private static final String JOB_ID = "cli-bench";
    private static final double AIM_MS = 150;
    private static final double AIM_RATIO = 2.5;

    @Override
    public String name() {
        return "cli";
    }

    @Override
    public List<Param> params() {
        return List.of(Param.count("runs", "timed runs of each command (default 21, quick 3)"),
                Param.count("allocations", "finished mock allocations on the agent (default 3)"));
    }

    @Override
    public List<Figure> run(BenchEnv env) throws Exception {
        int runs = env.count(this, "runs", env.size(3, 21));
        int allocs = env.count(this, "allocations", 3);
        if (env.droverHome() == null) {
            throw new IllegalStateException("drover.home is not set: run through the ./drover launcher");
        }
        Path dir = env.freshDir("cli");
        Path launcher = env.droverHome().resolve("drover");
        try (ChildAgent agent = ChildAgent.spawn(env, dir, dir.resolve("data-" + ProcessHandle.current().pid()),
                "WARN")) {
            agent.awaitOk("/v1/jobs");
            String addr = "http://127.0.0.1:" + agent.port;
            Path job = Files.writeString(dir.resolve("job.hcl"), """
                    job "%s" {
                      type = "batch"
                      group "g" {
                        count = %d
                        task "main" {
                          driver = "mock"
                          config {
                            run_for       = "1ms"
                            stdout_string = "a line of the task's log\\n"
                          }
                        }
                      }
                    }
                    """.formatted(JOB_ID, allocs));
            Command register = new Command("job run", List.of(launcher.toString(), "job", "run", "-address", addr,
                    job.toString()));
            register.run(dir);
            String alloc = firstAlloc(agent.port);
            Map<String, Command> commands = new LinkedHashMap<>();
            commands.put("floor", new Command("JVM hello world", floor(env.droverHome())));
            commands.put("alloc status", client(launcher, addr, "alloc", "status", alloc));
            commands.put("job status", client(launcher, addr, "job", "status", JOB_ID));
            commands.put("alloc logs", client(launcher, addr, "alloc", "logs", alloc, "main"));
            commands.put("plugin status", client(launcher, addr, "plugin", "status"));
            commands.put("--help", new Command("--help", List.of(launcher.toString(), "--help")));
            List<Command> order = new ArrayList<>(commands.values());
            for (Command c : order) {
                c.run(dir); // untimed: records the CLI's AppCDS archive after a build, warms the page cache
            }
            Map<Command, List<Double>> times = new LinkedHashMap<>();
            Map<Command, Long> cpuTicks = new LinkedHashMap<>();
            order.forEach(c -> times.put(c, new ArrayList<>()));
            for (int r = 0; r < runs; r++) {
                for (int i = 0; i < order.size(); i++) {
                    Command c = order.get((i + r) % order.size());
                    long before = childrenCpuTicks();
                    times.get(c).add(c.run(dir));
                    cpuTicks.merge(c, childrenCpuTicks() - before, Long::sum);
                }
            }
            Percentiles floor = Percentiles.of(times.get(commands.get("floor")));
            String floorText = String.format("JVM floor %s ms [%s-%s]", Table.number(floor.p(50)),
                    Table.number(floor.p(0)), Table.number(floor.p(100)));
            env.progress().printf("  %s (median of %d, interleaved)%n", floorText, runs);
            List<Figure> figures = new ArrayList<>();
            double floorCpu = cpuMs(cpuTicks.get(commands.get("floor")), runs);
            for (Map.Entry<String, Command> e : commands.entrySet()) {
                if (e.getKey().equals("floor")) {
                    continue;
                }
                // CPU time (user + sys, the command's JVM and the launcher) moves far less with the machine's load
                // than wall time does: the figure to compare runs made on a busy machine with
                figures.add(Figure.info(name(), "drover " + e.getKey() + " CPU time, mean of " + runs,
                        cpuMs(cpuTicks.get(e.getValue()), runs), "ms",
                        String.format("JVM floor %s ms", Table.number(floorCpu))));
                Percentiles p = Percentiles.of(times.get(e.getValue()));
                double ratio = p.p(50) / floor.p(50);
                String spread = String.format("[%s-%s] ms", Table.number(p.p(0)), Table.number(p.p(100)));
                env.progress().printf("  drover %s: %s ms %s, %.2fx the floor; CPU %s ms (floor %s)%n", e.getKey(),
                        Table.number(p.p(50)), spread, ratio, Table.number(cpuMs(cpuTicks.get(e.getValue()), runs)),
                        Table.number(floorCpu));
                figures.add(Figure.atMost(name(), "drover " + e.getKey() + " wall, median of " + runs + " " + spread,
                        p.p(50), "ms", floorText, AIM_MS));
                figures.add(Figure.atMost(name(), "drover " + e.getKey() + " / JVM floor", ratio, "x",
                        floorText, AIM_RATIO));
            }
            return figures;
        }
    }

    private static Command client(Path launcher, String addr, String... args) {
        List<String> argv = new ArrayList<>(List.of(launcher.toString()));
        argv.addAll(List.of(args));
        argv.addAll(List.of("-address", addr));
        return new Command(String.join(" ", args), argv);
    }

    /** {@link JvmFloor} with the client commands' JVM flags (the launcher's argfile), without their archive. */
    private static List<String> floor(Path home) throws Exception {
        Path args = home.resolve("framework/cli/jvm-client.args");
        if (!Files.isRegularFile(args)) {
            throw new IllegalStateException("no " + args + ": the launcher's JVM flags for client commands");
        }
        List<String> argv = new ArrayList<>();
        argv.add(ProcessHandle.current().info().command().orElse("java"));
        argv.add("@" + args);
        argv.add("-cp");
        argv.add(Path.of(JvmFloor.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        argv.add(JvmFloor.class.getName());
        return argv;
    }

    /**
     * CPU time of this JVM's reaped children so far (user + sys, {@code /proc/self/stat} fields 16-17, in clock
     * ticks of 10 ms): a command's run adds its own once {@link Process#waitFor} has returned (the JDK reaps it).
     */
    private static long childrenCpuTicks() throws IOException {
        String stat = Files.readString(Path.of("/proc/self/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[13]) + Long.parseLong(f[14]); // cutime, cstime (fields 16, 17; f[0] is field 3)
    }

    private static double cpuMs(long ticks, int runs) {
        return ticks * 10.0 / runs;
    }

    private static String firstAlloc(int port) throws IOException {
        try (HttpConn c = new HttpConn(port)) {
            HttpConn.Response r = c.send("GET", "/v1/job/" + JOB_ID + "/allocations", null);
            JsonNode allocs = new ObjectMapper().readTree(new String(r.body(), StandardCharsets.UTF_8));
            if (r.status() != 200 || allocs.isEmpty()) {
                throw new IllegalStateException("the agent has no allocation of " + JOB_ID + " (HTTP " + r.status()
                        + ")");
            }
            return allocs.get(0).path("ID").asText();
        }
    }

    /** One command line, run to its end with stdout and stderr to files of the bench's directory. */
    private record Command(String label, List<String> argv) {
        /** Runs it; returns its wall time in ms. Throws when it exits non-zero, prints nothing or hangs. */
        double run(Path dir) throws Exception {
            Path out = dir.resolve("out.txt");
            Path err = dir.resolve("err.txt");
            ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile());
            pb.environment().remove("DROVER_ADDR");
            pb.environment().remove("DROVER_CDS");
            pb.environment().remove("JAVA_TOOL_OPTIONS");
            long t0 = System.nanoTime();
            Process p = pb.start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                // the launcher's own children too: a build it started (a source edited meanwhile) outlived it
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new IllegalStateException("drover " + label + " did not end in 120 s");
            }
            double ms = (System.nanoTime() - t0) / 1e6;
            if (p.exitValue() != 0 || Files.size(out) == 0) {
                throw new IllegalStateException(label + " exited " + p.exitValue() + " (stdout " + Files.size(out)
                        + " bytes): " + Files.readString(err).strip());
            }
            return ms;
        }
    }
}
