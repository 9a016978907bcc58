package io.drover.nomad.server;

import io.drover.driver.api.TaskNotFoundException;
import io.drover.nomad.proto.driver.CPUUsage;
import io.drover.nomad.proto.driver.MemoryUsage;
import io.drover.nomad.proto.driver.TaskResourceUsage;
import io.drover.nomad.proto.driver.TaskStats;
import io.drover.nomad.proto.driver.TaskStatsResponse;
import io.drover.nomad.task.NomadTasks;
import io.drover.nomad.task.TreeStats;
import io.grpc.stub.ServerCallStreamObserver;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The open {@code TaskStats} streams: each sends the CPU and memory of its task's process tree every collection
 * interval (at least {@value #MIN_INTERVAL_MILLIS} ms): CPU as percents of one core over the interval (user, system,
 * total) for the whole tree, resident memory for the tree and per process; until the task exits (then the stream completes) or the
 * client cancels. One thread, {@code drover-nomad-stats}, reads {@code /proc} for every stream. Thread-safe.
 */
final class StatsStreams implements AutoCloseable {
    static final long MIN_INTERVAL_MILLIS = 100;

    private final ScheduledExecutorService thread;
    private final TreeStats reader = new TreeStats();

    StatsStreams() {
        ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, r -> {
            Thread th = new Thread(r, "drover-nomad-stats");
            th.setDaemon(true);
            return th;
        });
        t.setRemoveOnCancelPolicy(true);
        this.thread = t;
    }

    void open(NomadTasks tasks, String taskId, Duration every, ServerCallStreamObserver<TaskStatsResponse> stream)
            throws TaskNotFoundException {
        Map<String, String> state = tasks.handleState(taskId);
        int pid = Integer.parseInt(state.getOrDefault("pid", "0"));
        int sid = Integer.parseInt(state.getOrDefault("sid", state.getOrDefault("pid", "0")));
        int pgid = Integer.parseInt(state.getOrDefault("pgid", state.getOrDefault("pid", "0")));
        long millis = Math.max(MIN_INTERVAL_MILLIS, every.toMillis());
        new Tick(tasks, taskId, pid, sid, pgid, millis, stream).schedule(0);
    }

    private final class Tick implements Runnable {
        private final NomadTasks tasks;
        private final String taskId;
        private final int pid;
        private final int sid;
        private final int pgid;
        private final long millis;
        private final ServerCallStreamObserver<TaskStatsResponse> stream;
        private double lastUser;
        private double lastSystem;
        private long lastAt;

        Tick(NomadTasks tasks, String taskId, int pid, int sid, int pgid, long millis,
                ServerCallStreamObserver<TaskStatsResponse> stream) {
            this.tasks = tasks;
            this.taskId = taskId;
            this.pid = pid;
            this.sid = sid;
            this.pgid = pgid;
            this.millis = millis;
            this.stream = stream;
        }

        void schedule(long delay) {
            thread.schedule(this, delay, TimeUnit.MILLISECONDS);
        }

        @Override
        public void run() {
            if (stream.isCancelled()) {
                return;
            }
            try {
                if (!tasks.running(taskId) || pid <= 0) {
                    stream.onCompleted();
                    return;
                }
                Map<Integer, TreeStats.Usage> byPid = reader.sample(pid, sid, pgid);
                TaskStats.Builder s = TaskStats.newBuilder().setId(taskId)
                        .setTimestamp(DriverService.timestamp(Instant.now()));
                TreeStats.Usage total = TreeStats.total(byPid);
                s.setAggResourceUsage(percents(total));
                byPid.forEach((p, u) -> s.putResourceUsageByPid(Integer.toString(p), memory(u)));
                stream.onNext(TaskStatsResponse.newBuilder().setStats(s).build());
                schedule(millis);
            } catch (RuntimeException e) {
                // a cancelled stream
            }
        }

        /** Nomad's CPU figures are percents of one core over the last interval: user, system and their sum. */
        private TaskResourceUsage percents(TreeStats.Usage total) {
            long now = System.nanoTime();
            double user = 0;
            double system = 0;
            if (lastAt != 0) {
                double wall = (now - lastAt) / 1e9;
                user = Math.max(0, (total.userSeconds() - lastUser) / wall * 100);
                system = Math.max(0, (total.systemSeconds() - lastSystem) / wall * 100);
            }
            lastUser = total.userSeconds();
            lastSystem = total.systemSeconds();
            lastAt = now;
            CPUUsage cpu = CPUUsage.newBuilder().setUserMode(user).setSystemMode(system).setPercent(user + system)
                    .addMeasuredFields(CPUUsage.Fields.USER_MODE).addMeasuredFields(CPUUsage.Fields.SYSTEM_MODE)
                    .addMeasuredFields(CPUUsage.Fields.PERCENT).build();
            return memory(total).toBuilder().setCpu(cpu).build();
        }
    }

    private static TaskResourceUsage memory(TreeStats.Usage u) {
        return TaskResourceUsage.newBuilder()
                .setMemory(MemoryUsage.newBuilder().setRss(u.rssBytes()).addMeasuredFields(MemoryUsage.Fields.RSS))
                .build();
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
