package io.drover.bench;

import com.google.protobuf.ByteString;
import io.drover.core.driver.DriverRegistry;
import io.drover.core.time.RealTimers;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskDriver;
import io.drover.nomad.NomadPlugin;
import io.drover.nomad.proto.base.BasePluginGrpc;
import io.drover.nomad.proto.base.SetConfigRequest;
import io.drover.nomad.proto.driver.DestroyTaskRequest;
import io.drover.nomad.proto.driver.DriverGrpc;
import io.drover.nomad.proto.driver.StartTaskRequest;
import io.drover.nomad.proto.driver.StartTaskResponse;
import io.drover.nomad.proto.driver.StopTaskRequest;
import io.drover.nomad.proto.driver.WaitTaskRequest;
import io.drover.nomad.server.Handshake;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Issue 14: Drover's raw_exec served to a Nomad client as a go-plugin gRPC plugin, measured from a gRPC client in
 * this JVM against a plugin child process ({@code NomadPlugin}, the same classpath): plugin start to handshake
 * line (median of 3; quick: 1); StartTask answer and WaitTask answer after exit for N {@code /bin/true}, each
 * interleaved with raw_exec's own start+exit in this JVM (the {@code launch} bench's path); then M concurrent
 * running tasks ({@code sleep}) in the one plugin process: its threads and RSS.
 */
final class NomadPluginBench implements Bench {
    @Override
    public String name() {
        return "nomad_plugin";
    }

    @Override
    public List<Param> params() {
        return List.of(Param.count("runs", "sequential /bin/true runs (default 500, quick 100)"),
                Param.count("concurrent", "concurrent running tasks (default 1000, quick 100)"));
    }

    @Override
    public List<Figure> run(BenchEnv env) throws Exception {
        int n = env.count(this, "runs", env.size(100, 500));
        int m = env.count(this, "concurrent", env.size(100, 1000));
        int warmup = env.size(20, 100);
        Path dir = env.freshDir("nomad_plugin");
        double[] handshakes = new double[env.size(1, 3)];
        for (int i = 0; i < handshakes.length - 1; i++) {
            Plugin p = Plugin.start(env.pluginDir());
            handshakes[i] = p.handshakeMillis;
            p.close();
        }
        Plugin p = Plugin.start(env.pluginDir());
        handshakes[handshakes.length - 1] = p.handshakeMillis;
        List<String> started = new ArrayList<>();
        double[] startAnswer = new double[n];
        double[] waitAnswer = new double[n];
        double[] direct = new double[n];
        double threads;
        double rssMib;
        try (RealTimers timers = new RealTimers();
                DriverRegistry registry = DriverRegistry.load(env.pluginDir(),
                        Map.of("raw_exec", Map.of("enabled", true)), timers)) {
            TaskDriver raw = registry.driver("raw_exec").orElseThrow();
            BasePluginGrpc.newBlockingStub(p.channel).setConfig(SetConfigRequest.newBuilder()
                    .setMsgpackConfig(ByteString.copyFrom(Msgpack.object(Map.of("enabled", true)))).build());
            DriverGrpc.DriverBlockingStub driver = DriverGrpc.newBlockingStub(p.channel);
            Path allocDir = Files.createDirectories(dir.resolve("alloc"));
            Path taskDir = Files.createDirectories(allocDir.resolve("t"));
            Path logs = Files.createDirectories(allocDir.resolve("alloc/logs"));
            byte[] trueConfig = Msgpack.object(Map.of("command", "/bin/true", "args", List.of()));
            for (int i = -warmup; i < n; i++) {
                var task = task("seq-" + i, allocDir, logs, trueConfig);
                long a = System.nanoTime();
                StartTaskResponse r = driver.startTask(StartTaskRequest.newBuilder().setTask(task).build());
                long b = System.nanoTime();
                if (r.getResult() != StartTaskResponse.Result.SUCCESS) {
                    throw new IllegalStateException("StartTask: " + r.getDriverErrorMsg());
                }
                driver.waitTask(WaitTaskRequest.newBuilder().setTaskId(task.getId()).build());
                long c = System.nanoTime();
                driver.destroyTask(DestroyTaskRequest.newBuilder().setTaskId(task.getId()).build());
                TaskConfig own = new TaskConfig("direct-" + i, "bench", "j", "g", "t",
                        Map.of("command", "/bin/true", "args", List.of()), Map.of("PATH", "/usr/bin:/bin"), taskDir,
                        allocDir, logs.resolve("d.stdout"), logs.resolve("d.stderr"));
                long d = System.nanoTime();
                raw.start(own).toCompletableFuture().get(10, TimeUnit.SECONDS);
                raw.awaitExit(own.taskId()).toCompletableFuture().get(10, TimeUnit.SECONDS);
                long e = System.nanoTime();
                raw.destroy(own.taskId());
                if (i >= 0) {
                    startAnswer[i] = (b - a) / 1e6;
                    waitAnswer[i] = (c - a) / 1e6;
                    direct[i] = (e - d) / 1e6;
                }
            }
            byte[] sleepConfig = Msgpack.object(Map.of("command", "/bin/sleep", "args", List.of("1000")));
            try {
                for (int i = 0; i < m; i++) {
                    var task = task("conc-" + i, allocDir, logs, sleepConfig);
                    StartTaskResponse r = driver.startTask(StartTaskRequest.newBuilder().setTask(task).build());
                    if (r.getResult() != StartTaskResponse.Result.SUCCESS) {
                        throw new IllegalStateException("StartTask: " + r.getDriverErrorMsg());
                    }
                    started.add(task.getId());
                }
                threads = status(p.process.pid(), "Threads:");
                rssMib = status(p.process.pid(), "VmRSS:") / 1024.0;
            } finally {
                DriverGrpc.DriverFutureStub async = DriverGrpc.newFutureStub(p.channel);
                List<com.google.common.util.concurrent.ListenableFuture<?>> stops = new ArrayList<>();
                for (String id : started) {
                    stops.add(async.stopTask(StopTaskRequest.newBuilder().setTaskId(id).setSignal("SIGKILL")
                            .setTimeout(com.google.protobuf.Duration.newBuilder().setSeconds(1)).build()));
                }
                for (var f : stops) {
                    f.get(60, TimeUnit.SECONDS);
                }
                for (String id : started) {
                    driver.destroyTask(DestroyTaskRequest.newBuilder().setTaskId(id).setForce(true).build());
                }
            }
        } finally {
            p.close();
        }
        Percentiles s = Percentiles.of(startAnswer);
        Percentiles w = Percentiles.of(waitAnswer);
        Percentiles d = Percentiles.of(direct);
        String baseline = "raw_exec in-process start+exit median " + Table.number(d.p(50)) + " ms";
        return List.of(
                Figure.info(name(), "plugin start to handshake, median", Percentiles.of(handshakes).p(50), "ms",
                        "a JVM start"),
                Figure.info(name(), "StartTask answer median (" + n + " x /bin/true)", s.p(50), "ms", baseline),
                Figure.info(name(), "StartTask to WaitTask answer median", w.p(50), "ms", baseline),
                Figure.atMost(name(), "gRPC path over raw_exec's own, p50", w.p(50) - d.p(50), "ms", baseline, 1.0),
                Figure.info(name(), "StartTask to WaitTask answer p90", w.p(90), "ms",
                        "raw_exec in-process p90 " + Table.number(d.p(90)) + " ms"),
                Figure.atMost(name(), m + " running tasks: plugin threads", threads, "", "bounded", 64),
                Figure.info(name(), m + " running tasks: plugin RSS", rssMib, "MiB", "one plugin JVM"));
    }

    private static io.drover.nomad.proto.driver.TaskConfig task(String id, Path allocDir, Path logs, byte[] config) {
        return io.drover.nomad.proto.driver.TaskConfig.newBuilder().setId(id).setName("t").setAllocId("bench")
                .setJobId("j").setTaskGroupName("g").setAllocDir(allocDir.toString())
                .setStdoutPath(logs.resolve(id + ".stdout").toString())
                .setStderrPath(logs.resolve(id + ".stderr").toString()).putEnv("PATH", "/usr/bin:/bin")
                .setMsgpackDriverConfig(ByteString.copyFrom(config)).build();
    }

    private static double status(long pid, String field) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith(field)) {
                return Double.parseDouble(line.substring(field.length()).trim().split("\\s+")[0]);
            }
        }
        return -1;
    }

    /** The plugin child process and a channel to it. */
    private static final class Plugin implements AutoCloseable {
        final Process process;
        final ManagedChannel channel;
        final double handshakeMillis;

        private Plugin(Process process, ManagedChannel channel, double handshakeMillis) {
            this.process = process;
            this.channel = channel;
            this.handshakeMillis = handshakeMillis;
        }

        static Plugin start(Path pluginDir) throws Exception {
            ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), NomadPlugin.class.getName(), "raw_exec",
                    "-plugin-dir", pluginDir.toString()).redirectError(ProcessBuilder.Redirect.DISCARD);
            pb.environment().put(Handshake.COOKIE_KEY, Handshake.COOKIE_VALUE);
            long a = System.nanoTime();
            Process p = pb.start();
            String line = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))
                    .readLine();
            long b = System.nanoTime();
            if (line == null) {
                p.destroyForcibly();
                throw new IllegalStateException("the plugin printed no handshake");
            }
            int port = Integer.parseInt(line.split("\\|")[3].split(":")[1]);
            ManagedChannel ch = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
            return new Plugin(p, ch, (b - a) / 1e6);
        }

        @Override
        public void close() throws Exception {
            channel.shutdownNow();
            process.toHandle().destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor();
            }
        }
    }

    /** go-cty msgpack of a flat object of strings, bools and string lists (what Nomad sends for such a block). */
    static final class Msgpack {
        static byte[] object(Map<String, Object> values) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write(0x80 | values.size());
            values.forEach((k, v) -> {
                str(out, k);
                if (v instanceof Boolean b) {
                    out.write(b ? 0xc3 : 0xc2);
                } else if (v instanceof String s) {
                    str(out, s);
                } else {
                    List<?> l = (List<?>) v;
                    out.write(0x90 | l.size());
                    l.forEach(x -> str(out, (String) x));
                }
            });
            return out.toByteArray();
        }

        private static void str(ByteArrayOutputStream out, String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            out.write(0xd9);
            out.write(b.length);
            out.write(b, 0, b.length);
        }
    }
}
