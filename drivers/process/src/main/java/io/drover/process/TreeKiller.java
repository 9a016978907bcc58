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
 * SIGKILLs a task's whole tree and verifies it died. A task under a live shim (raw_exec, java) needs none of the
 * search below: {@link ShimKill} kills its group, sparing the shim, and the shim's exit verifies the rest (it is the
 * tree's subreaper and ends only once nothing is left below it); the steps below remain for a task without the
 * shim, a shim whose fork has not happened or that is ending, an older shim re-attached, and a shim that has not
 * ended by {@link #VERIFY_TIMEOUT}. Steps:
 * <ol>
 *   <li>kill the group, at once, on the caller's thread: {@code pidfd_send_signal(SIGKILL)} to the task and
 *       {@code kill(-pgid, SIGKILL)}: two syscalls, no {@code /proc} read, so SIGKILL lands at the kill
 *       timeout's deadline whatever the machine's process count (most trees never leave their group);
 *   <li>then, on the killer thread, <b>collect</b> the rest from a {@code /proc} snapshot: the task's session
 *       and group (members re-parented meanwhile included), descendants by parent links, and every process
 *       whose environment carries the task's {@link ProcessSupervisor#TREE_VAR} marker — which finds a
 *       descendant that called {@code setsid} even after its parent died in step 1 and its parent link is gone
 *       — with their own sessions, groups and descendants;
 *   <li>pin: open a pidfd for each and check its start time against the snapshot, so that a recycled pid is
 *       never signalled;
 *   <li>kill: {@code pidfd_send_signal(SIGKILL)} to each pinned process; the snapshot is repeated (at most
 *       three rounds) to catch what was forked meanwhile;
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
        final boolean groupKilled;
        boolean searched; // its verification has started

        /** @param groupKilled the task was live and its group was killed before the search */
        Request(SupervisedProcess task, CompletableFuture<KillReport> report, boolean groupKilled) {
            this.task = task;
            this.report = report;
            this.groupKilled = groupKilled;
        }
    }

    private final java.util.concurrent.atomic.AtomicLong searched = new java.util.concurrent.atomic.AtomicLong();

    /** How many tree kills went through the {@code /proc} search so far (tests: a shim's kill needs none). */
    long searched() {
        return searched.get();
    }

    private final Object lock = new Object();
    private List<Request> queued = new ArrayList<>();
    private Thread killer;

    /**
     * SIGKILLs the task and its group now, on the caller's thread (two syscalls), then starts the search for
     * the rest of the tree and returns: never blocks the caller (engine and timer threads call this through
     * {@code TaskDriver.signal}). The search runs on this supervisor's killer thread, which serves every request
     * queued while it scanned in one batch: one {@code /proc} snapshot per round for all of them (a snapshot
     * costs 20-100 ms on a loaded machine; before the group kill moved out of it, 100 concurrent SIGKILLs landed
     * seconds late).
     */
    CompletableFuture<KillReport> kill(SupervisedProcess task) {
        CompletableFuture<KillReport> report = new CompletableFuture<>();
        int root = task.pid();
        task.killStarted(report);
        boolean live = !task.reaped();
        if (live && task.killBelowShim(report)) {
            // under a live shim: the task's group is dead and the shim, spared, kills the rest and ends; its exit
            // completes the report. No search unless it has not ended by the verification deadline.
            watcher.scheduleQuietly(System.nanoTime() + VERIFY_TIMEOUT.toNanos(), () -> {
                if (task.shimDidNotEnd(report)) {
                    LOG.warn("the shim of task {} has not ended {} after its task's SIGKILL; killing it and searching "
                            + "/proc for its tree", task.pid(), VERIFY_TIMEOUT);
                    task.killSelfAndGroup();
                    queue(new Request(task, report, true));
                }
            });
            return report;
        }
        if (live) {
            // a live task: the critical path. SIGKILL lands now; the search for the rest comes after. (A task
            // already reaped is swept the other way round, search first, so that the report names every
            // process it left: no deadline is at stake there.)
            task.killSelfAndGroup();
        }
        if (!live && !owner.groupExists(root)) {
            // the task was gone before this kill and left nothing in its group: skip the /proc scan (destroy of
            // every task that exited cleanly). Not for a task this call killed: it may be reaped already, its
            // group empty, while a descendant that called setsid still runs and must be searched for. A process that moved to another group of the session, or called setsid,
            // before the leader exited is not found this way; see docs/process-supervision.md.
            task.killVerified(KillReport.NOTHING);
            report.complete(KillReport.NOTHING);
            return report;
        }
        queue(new Request(task, report, live));
        return report;
    }

    private void queue(Request request) {
        synchronized (lock) {
            queued.add(request);
            startKiller();
            lock.notifyAll();
        }
    }

    /**
     * Starts the killer thread, if it is not running, with a search that signals nothing: the first snapshot of a
     * JVM runs interpreted and cold (87 ms instead of 5 ms for 230 processes on the 2-core machine, issue 18), and
     * without this the first SIGKILL burst paid for it. Called at the supervisor's first spawn; never blocks.
     */
    void warmUp() {
        synchronized (lock) {
            startKiller();
        }
    }

    private void startKiller() { // holding lock
        if (killer == null) {
            killer = new Thread(this::serve, "drover-tree-killer");
            killer.setDaemon(true);
            killer.start();
        }
    }

    private void serve() {
        // as root: the search decides when a killed task's exit is reported, and on a machine its tasks saturate a
        // nice-0 killer waited hundreds of milliseconds for a core (issue 18). It never spawns a process.
        owner.raiseCallingThread();
        try {
            ProcTable.snapshot().tree(self, self, self); // warm: see warmUp()
        } catch (RuntimeException e) {
            LOG.debug("warm-up snapshot failed: {}", e.toString());
        }
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

    /**
     * Serves a batch: the requests that queued while the previous batch was searched. Nothing waits for more to
     * come: the first kill of a burst is searched at once, and the kills that arrive meanwhile form the next
     * batch, which then shares one snapshot per round. A request whose round pinned nothing new is done: its
     * verification starts right away, so its exit never waits for the other trees of the batch (issue 18).
     */
    private void killBatch(List<Request> batch) {
        searched.addAndGet(batch.size());
        List<Request> searching = batch;
        try {
            for (int round = 0; round < ROUNDS && !searching.isEmpty(); round++) {
                    ProcTable snapshot = ProcTable.snapshot();
                Map<String, List<ProcTable.Proc>> marked = markedEscapees(snapshot, searching);
                List<Request> again = new ArrayList<>();
                for (Request r : searching) {
                    boolean fresh = collect(r, snapshot, marked, r.task.stillOurs());
                    r.task.killSelfAndGroup();
                    for (Pinned pin : r.pinned.values()) {
                        if (pin.pidfd >= 0) {
                            owner.pidfdKill(pin.pidfd);
                        }
                    }
                    if (fresh && round < ROUNDS - 1) {
                        again.add(r); // something new was pinned: look again for what it forked meanwhile
                    } else {
                        verify(r);
                    }
                }
                searching = again;
            }
        } catch (RuntimeException e) {
            LOG.error("tree kill failed; killing the groups only", e);
            for (Request r : searching) {
                r.task.killSelfAndGroup();
                verify(r);
            }
        }
    }

    private void verify(Request r) {
        if (r.searched) {
            return;
        }
        r.searched = true;
        new Verification(r.task, r.killed, r.pinned.values().stream().filter(p -> p.pidfd >= 0).toList(),
                r.report).start();
    }

    /**
     * Pins what the snapshot shows of a task's tree that was not pinned yet; true when something new was. The
     * tree: the task's session, group and descendants, and, for the processes that carry the task's marker
     * (descendants that left the session, whose parent may be dead already), their sessions, groups and
     * descendants too.
     *
     * @param ours the task still owned its pid number after the snapshot ({@link SupervisedProcess#stillOurs}):
     *     the snapshot's session, group and children of that number are the task's. False once it was reaped:
     *     only processes that carry its marker are taken then.
     */
    private boolean collect(Request r, ProcTable snapshot, Map<String, List<ProcTable.Proc>> marked, boolean ours) {
        int root = r.task.pid();
        String marker = r.task.treeMarker();
        List<ProcTable.Proc> tree = new ArrayList<>();
        for (ProcTable.Proc p : snapshot.tree(root, root, root)) {
            // the task's number after its reap may name another task's session, group and children: each is then
            // taken only when its environment proves it the task's (it inherited the task's marker)
            if (ours || (marker != null && p.pid() != root && ProcTable.environHas(p.pid(), marker))) {
                tree.add(p);
            }
        }
        if (marker != null) {
            for (ProcTable.Proc p : marked.getOrDefault(marker, List.of())) {
                if (p.sid() != root && p.pgid() != root && !r.pinned.containsKey(p.pid())) {
                    tree.addAll(snapshot.tree(p.pid(), p.sid(), p.pgid()));
                }
            }
        }
        if (r.groupKilled && !r.pinned.containsKey(root) && snapshot.get(root).isEmpty()) {
            // killed and reaped before the snapshot: still part of what was killed
            ProcTable.Proc gone = new ProcTable.Proc(root, "", 'X', 0, root, root, 0);
            r.pinned.put(root, new Pinned(gone, -1));
            r.killed.add(gone);
        }
        boolean fresh = false;
        for (ProcTable.Proc p : tree) {
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

    /**
     * Processes that may have escaped a tree, by the tree marker ({@code KEY=VALUE}) they carry: among live ones
     * that lead their own session or group, or whose session or group leader is gone (children of an escapee
     * that died). Each candidate's environment is read once per snapshot, whatever the batch's size.
     */
    private Map<String, List<ProcTable.Proc>> markedEscapees(ProcTable snapshot, List<Request> batch) {
        if (batch.stream().allMatch(r -> r.task.treeMarker() == null)) {
            return Map.of();
        }
        // a descendant starts no earlier than its task: older processes (the machine's daemons, other users'
        // sessions) need no environ read. Unknown start times (-1) disable the filter.
        long oldest = batch.stream().filter(r -> r.task.treeMarker() != null)
                .mapToLong(r -> r.task.startTime()).min().orElse(-1);
        Map<String, List<ProcTable.Proc>> out = new java.util.HashMap<>();
        for (ProcTable.Proc p : snapshot.all()) {
            if (p.pid() == self || p.pid() <= 1 || p.zombie() || p.startTime() < oldest) {
                continue;
            }
            if (p.sid() == p.pid() || p.pgid() == p.pid() || snapshot.get(p.sid()).isEmpty()
                    || snapshot.get(p.pgid()).isEmpty()) {
                ProcTable.environValue(p.pid(), ProcessSupervisor.TREE_VAR).ifPresent(v -> out
                        .computeIfAbsent(ProcessSupervisor.TREE_VAR + "=" + v, k -> new ArrayList<>()).add(p));
            }
        }
        return out;
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
