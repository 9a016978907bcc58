package io.drover.process;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SIGKILLs a task's whole tree and verifies it died. Steps:
 * <ol>
 *   <li>collect: a {@code /proc} snapshot gives the task's session, group and every descendant by parent links
 *       — before anything is killed, because a killed parent's children are re-parented and the link is lost;
 *   <li>pin: open a pidfd for each and check its start time against the snapshot, so that a recycled pid is
 *       never signalled;
 *   <li>kill: {@code kill(-pgid, SIGKILL)}, then {@code pidfd_send_signal(SIGKILL)} to each pinned process; the
 *       snapshot is repeated (at most three rounds) to catch what was forked meanwhile;
 *   <li>verify: the pidfds are watched by the {@link ExitWatcher}; each becomes readable when its process is
 *       dead. Whatever is not dead after {@link #VERIFY_TIMEOUT} is reported as a survivor (and logged).
 * </ol>
 * Thread-safe; {@link #kill} never blocks: one killer thread per supervisor does the scans, in batches.
 */
final class TreeKiller {
    private static final Logger LOG = LoggerFactory.getLogger(TreeKiller.class);
    static final Duration VERIFY_TIMEOUT = Duration.ofSeconds(5);
    private static final int ROUNDS = 3;
    private static final int SIGKILL = 9;

    private final ProcessSupervisor owner;
    private final ExitWatcher watcher;
    private final int self = (int) ProcessHandle.current().pid();

    TreeKiller(ProcessSupervisor owner, ExitWatcher watcher) {
        this.owner = owner;
        this.watcher = watcher;
    }

    private record Pinned(ProcTable.Proc proc, int pidfd) {}

    /** One task's tree kill in progress: what was found and pinned so far. */
    private static final class Request {
        final SupervisedProcess task;
        final CompletableFuture<KillReport> report;
        final List<ProcTable.Proc> killed = new ArrayList<>();
        final Map<Integer, Pinned> pinned = new LinkedHashMap<>();

        Request(SupervisedProcess task, CompletableFuture<KillReport> report) {
            this.task = task;
            this.report = report;
        }
    }

    private final Object lock = new Object();
    private List<Request> queued = new ArrayList<>();
    private Thread killer;

    /**
     * Starts the tree kill of a task and returns at once: never blocks the caller (engine threads call this
     * through {@code TaskDriver.signal}). The work runs on this supervisor's killer thread, which serves every
     * request queued while it scanned in one batch: one {@code /proc} snapshot per round for all of them. A
     * snapshot costs 20-100 ms on these machines, so one scan per task made 100 concurrent SIGKILLs land
     * seconds late; batched, they land within a couple of scans.
     */
    CompletableFuture<KillReport> kill(SupervisedProcess task) {
        CompletableFuture<KillReport> report = new CompletableFuture<>();
        int root = task.pid();
        task.killStarted(report);
        if (task.reaped() && !owner.groupExists(root)) {
            // the task is gone and left nothing in its group: skip the /proc scan (destroy of every task
            // that exited cleanly). A process that moved to another group of the session, or called setsid,
            // before the leader exited is not found this way; see docs/process-supervision.md.
            task.killVerified(KillReport.NOTHING);
            report.complete(KillReport.NOTHING);
            return report;
        }
        synchronized (lock) {
            queued.add(new Request(task, report));
            if (killer == null) {
                killer = new Thread(this::serve, "drover-tree-killer");
                killer.setDaemon(true);
                killer.start();
            }
            lock.notifyAll();
        }
        return report;
    }

    private void serve() {
        while (true) {
            List<Request> batch;
            synchronized (lock) {
                while (queued.isEmpty()) {
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
                batch = queued;
                queued = new ArrayList<>();
            }
            killBatch(batch);
        }
    }

    private void killBatch(List<Request> batch) {
        try {
            for (int round = 0; round < ROUNDS; round++) {
                ProcTable snapshot = ProcTable.snapshot();
                boolean fresh = false;
                for (Request r : batch) {
                    fresh |= collect(r, snapshot);
                }
                for (Request r : batch) {
                    r.task.killSelfAndGroup();
                    for (Pinned pin : r.pinned.values()) {
                        if (pin.pidfd >= 0) {
                            owner.pidfdKill(pin.pidfd);
                        }
                    }
                }
                if (!fresh) {
                    break;
                }
            }
        } catch (RuntimeException e) {
            LOG.error("tree kill failed; killing the groups only", e);
            batch.forEach(r -> r.task.killSelfAndGroup());
        }
        for (Request r : batch) {
            new Verification(r.task, r.killed, r.pinned.values().stream().filter(p -> p.pidfd >= 0).toList(),
                    r.report).start();
        }
    }

    /** Pins what the snapshot shows of a task's tree that was not pinned yet; true when something new was. */
    private boolean collect(Request r, ProcTable snapshot) {
        int root = r.task.pid();
        boolean fresh = false;
        for (ProcTable.Proc p : snapshot.tree(root, root, root)) {
            if (p.pid() == self || p.pid() <= 1 || r.pinned.containsKey(p.pid())
                    || (p.zombie() && p.pid() != root)) {
                continue;
            }
            if (p.pid() == root) {
                r.pinned.put(root, new Pinned(p, -1));
                r.killed.add(p);
                continue;
            }
            Optional<Pinned> pin = pin(p);
            if (pin.isPresent()) {
                r.pinned.put(p.pid(), pin.get());
                r.killed.add(p);
                fresh = true;
            }
        }
        return fresh;
    }

    private Optional<Pinned> pin(ProcTable.Proc p) {
        int fd = owner.pidfdOpen(p.pid());
        if (fd < 0) {
            return Optional.empty(); // already gone
        }
        Optional<ProcTable.Proc> now = ProcTable.read(p.pid());
        if (now.isEmpty() || now.get().startTime() != p.startTime()) {
            owner.closeFd(fd); // the pid was recycled between the snapshot and the pidfd
            return Optional.empty();
        }
        return Optional.of(new Pinned(p, fd));
    }

    /** Waits, on the watcher thread, for every pinned pidfd to become readable, or for the deadline. */
    private final class Verification {
        private final SupervisedProcess task;
        private final List<ProcTable.Proc> killed;
        private final CompletableFuture<KillReport> report;
        private final Map<Long, Pinned> pending = new LinkedHashMap<>();
        private final List<Pinned> toWatch;
        private boolean done;

        Verification(SupervisedProcess task, List<ProcTable.Proc> killed, List<Pinned> toWatch,
                CompletableFuture<KillReport> report) {
            this.task = task;
            this.killed = killed;
            this.toWatch = toWatch;
            this.report = report;
        }

        synchronized void start() {
            for (Pinned pin : toWatch) {
                try {
                    long token = watcher.watch(pin.pidfd, this::dead);
                    pending.put(token, pin);
                } catch (IllegalStateException e) {
                    LOG.warn("cannot watch process {} after SIGKILL: {}", pin.proc.pid(), e.getMessage());
                    owner.closeFd(pin.pidfd);
                }
            }
            if (pending.isEmpty()) {
                finish(List.of());
                return;
            }
            watcher.schedule(System.nanoTime() + VERIFY_TIMEOUT.toNanos(), this::deadline);
        }

        private synchronized void dead(long token) {
            Pinned pin = pending.remove(token);
            if (pin == null || done) {
                return;
            }
            watcher.unwatch(token, pin.pidfd);
            owner.closeFd(pin.pidfd);
            if (pending.isEmpty()) {
                finish(List.of());
            }
        }

        private synchronized void deadline() {
            if (done) {
                return;
            }
            List<ProcTable.Proc> survivors = new ArrayList<>();
            pending.forEach((token, pin) -> {
                watcher.unwatch(token, pin.pidfd);
                owner.closeFd(pin.pidfd);
                survivors.add(ProcTable.read(pin.proc.pid()).orElse(pin.proc));
            });
            pending.clear();
            LOG.warn("processes of task {} still alive {} after SIGKILL: {}", task.pid(), VERIFY_TIMEOUT, survivors);
            finish(survivors);
        }

        private void finish(List<ProcTable.Proc> survivors) {
            done = true;
            KillReport result = new KillReport(killed, survivors);
            report.complete(result);
            task.killVerified(result);
        }
    }
}
