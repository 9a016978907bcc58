package io.drover.core.store;

import io.drover.core.state.AllocationState;
import io.drover.core.state.TaskState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link StateStore} over an append-only journal of CRC-framed JSON delta records plus a compacted snapshot
 * (file format: docs/state-store.md). One writer thread owns the files; it takes every queued change, writes the
 * batch with one {@code write} and one {@code fdatasync}, then runs the batch's callbacks in order. Within a batch,
 * a version of an allocation that a later version supersedes is not written (the later one carries its events).
 * The queue is unbounded: callers never block, and the writer's batches grow with the load.
 */
public final class JournalStore implements StateStore {
    private static final Logger LOG = LoggerFactory.getLogger(JournalStore.class);

    private sealed interface Op permits PersistOp, HandleOp, DeleteOp, StopOp {}

    private record PersistOp(AllocationState state, Runnable onDurable) implements Op {}

    private record HandleOp(String allocId, String task, Map<String, String> handle, Runnable onDurable)
            implements Op {}

    private record DeleteOp(String allocId, Runnable onDurable) implements Op {}

    private record StopOp() implements Op {}

    /** Observes each group commit: operations in the batch, bytes written, nanoseconds spent in the sync. */
    interface CommitListener {
        void committed(int ops, long bytes, long syncNanos);
    }

    private final StoreFiles files;
    private final RecordCodec codec;
    private final StoreOptions options;
    private final LinkedBlockingQueue<Op> queue = new LinkedBlockingQueue<>();
    private final Object enqueueLock = new Object();
    private final Thread writer;
    private final Map<String, AllocationState> accepted = new ConcurrentHashMap<>();
    private final Map<String, AllocationState> durable = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Map<String, String>>> durableHandles = new ConcurrentHashMap<>();
    private boolean closed; // guarded by enqueueLock
    private volatile Throwable failure;
    volatile CommitListener commitListener;

    // Owned by the writer thread.
    private final Map<String, AllocationState> written;
    private final Map<String, Map<String, Map<String, String>>> handles = new HashMap<>();
    private final FrameBuffer buffer;
    private final JobRefs jobs;
    private Journal journal;
    private long compactAt;

    private JournalStore(StoreFiles files, RecordCodec codec, StoreOptions options, Recovery.Recovered r) {
        this.files = files;
        this.codec = codec;
        this.options = options;
        this.journal = r.journal();
        this.compactAt = options.compactBytes();
        this.buffer = new FrameBuffer(codec, 1 << 16);
        this.written = new HashMap<>(r.image().allocations());
        this.jobs = new JobRefs(r.image().jobs());
        durable.putAll(written);
        accepted.putAll(written);
        for (Map.Entry<String, Map<String, Map<String, String>>> e : r.image().handles().entrySet()) {
            handles.put(e.getKey(), new LinkedHashMap<>(e.getValue()));
            durableHandles.put(e.getKey(), Map.copyOf(e.getValue()));
        }
        this.writer = new Thread(this::writeLoop, "drover-store-writer");
        writer.setDaemon(true);
    }

    /** Opens (creating when missing) the store in {@code dir} with default options. */
    public static JournalStore open(Path dir) throws IOException {
        return open(dir, StoreOptions.DEFAULT);
    }

    /**
     * Opens the store in {@code dir} (created 0700 when missing), recovering its content.
     *
     * @throws StoreCorruptException when a file holds data that cannot be read back (one-line message naming
     *     the file and offset); a torn tail of the newest journal is not corruption: it is cut off with a WARN
     */
    public static JournalStore open(Path dir, StoreOptions options) throws IOException {
        StoreFiles files = new StoreFiles(dir);
        RecordCodec codec = new RecordCodec();
        JournalStore store = new JournalStore(files, codec, options, Recovery.open(files, codec));
        store.writer.start();
        return store;
    }

    @Override
    public void persist(AllocationState state, Runnable onDurable) {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(state.job(), "state.job");
        for (Object field : new Object[] {state.id(), state.name(), state.jobId(), state.taskGroup(),
                state.clientStatus(), state.clientDescription(), state.desiredStatus(), state.desiredDescription()}) {
            Objects.requireNonNull(field, "allocation header field");
        }
        accepted.compute(state.id(), (id, prev) -> {
            if (prev != null) {
                for (Map.Entry<String, TaskState> e : prev.taskStates().entrySet()) {
                    TaskState now = state.taskStates().get(e.getKey());
                    if (now != null && !Deltas.extendsEvents(e.getValue().events(), now.events())) {
                        throw new IllegalArgumentException("events of task " + e.getKey() + " of allocation " + id
                                + " do not extend the previous version's (events are append-only)");
                    }
                }
            }
            return state;
        });
        enqueue(new PersistOp(state, onDurable));
    }

    @Override
    public void putHandle(String allocId, String task, Map<String, String> handle, Runnable onDurable) {
        Objects.requireNonNull(allocId, "allocId");
        Objects.requireNonNull(task, "task");
        enqueue(new HandleOp(allocId, task, Map.copyOf(handle), onDurable));
    }

    @Override
    public void delete(String allocId, Runnable onDurable) {
        Objects.requireNonNull(allocId, "allocId");
        accepted.remove(allocId);
        enqueue(new DeleteOp(allocId, onDurable));
    }

    @Override
    public List<AllocationState> load() {
        List<AllocationState> all = new ArrayList<>(durable.values());
        all.sort(Comparator.comparingLong(AllocationState::createTime).thenComparing(AllocationState::id));
        return all;
    }

    @Override
    public Map<String, Map<String, String>> handles(String allocId) {
        return durableHandles.getOrDefault(allocId, Map.of());
    }

    /** Changes queued and not yet taken by the writer (a gauge for monitoring and benchmarks). */
    public int queuedOps() {
        return queue.size();
    }

    /** The error that stopped the writer, or null while it is healthy. */
    public Throwable failure() {
        return failure;
    }

    @Override
    public void close() {
        synchronized (enqueueLock) {
            if (!closed) {
                closed = true;
                queue.add(new StopOp());
            }
        }
        if (Thread.currentThread() == writer) {
            return;
        }
        boolean interrupted = false;
        while (writer.isAlive()) {
            try {
                writer.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void enqueue(Op op) {
        synchronized (enqueueLock) {
            Throwable f = failure;
            if (f != null) {
                throw new IllegalStateException("state store failed: " + FrameScanner.oneLine(f), f);
            }
            if (closed) {
                throw new IllegalStateException("state store is closed");
            }
            queue.add(op);
        }
    }

    // ---- writer thread ----

    private void writeLoop() {
        List<Op> batch = new ArrayList<>();
        boolean stop = false;
        try {
            while (!stop) {
                batch.add(queue.take());
                queue.drainTo(batch, options.maxBatch() - 1);
                if (batch.get(batch.size() - 1) instanceof StopOp) {
                    batch.remove(batch.size() - 1);
                    stop = true;
                }
                if (!batch.isEmpty()) {
                    commit(batch);
                    batch.clear();
                }
                if (!stop && journal.size() >= compactAt) {
                    compact();
                }
            }
        } catch (Throwable e) {
            synchronized (enqueueLock) {
                failure = e;
            }
            LOG.error("state store: writing to {} failed; the store is stopped and no further change is "
                    + "acknowledged: {}", files.dir(), e.toString(), e);
        } finally {
            try {
                journal.close();
            } catch (IOException e) {
                LOG.warn("state store: closing {} failed: {}", journal.path(), e.toString());
            }
        }
    }

    private void commit(List<Op> batch) throws IOException {
        boolean[] superseded = superseded(batch);
        for (int i = 0; i < batch.size(); i++) {
            Op op = batch.get(i);
            if (op instanceof PersistOp p) {
                if (!superseded[i]) {
                    AllocationState s = p.state();
                    Records.Rec rec = Deltas.delta(written.get(s.id()), s, job -> jobs.ref(job, buffer));
                    if (rec != null) {
                        buffer.append(rec);
                    }
                    written.put(s.id(), s);
                }
            } else if (op instanceof HandleOp h) {
                buffer.append(Records.Rec.handle(h.allocId(), h.task(), h.handle()));
                if (h.handle().isEmpty()) {
                    Map<String, Map<String, String>> of = handles.get(h.allocId());
                    if (of != null && of.remove(h.task()) != null && of.isEmpty()) {
                        handles.remove(h.allocId());
                    }
                } else {
                    handles.computeIfAbsent(h.allocId(), k -> new LinkedHashMap<>()).put(h.task(), h.handle());
                }
            } else if (op instanceof DeleteOp d) {
                buffer.append(Records.Rec.delete(d.allocId()));
                written.remove(d.allocId());
                handles.remove(d.allocId());
            }
        }
        long bytes = buffer.size();
        long syncNanos = 0;
        if (bytes > 0) {
            journal.append(buffer);
            long t0 = System.nanoTime();
            journal.sync();
            syncNanos = System.nanoTime() - t0;
        }
        publishDurable(batch, superseded);
        CommitListener listener = commitListener;
        if (listener != null) {
            listener.committed(batch.size(), bytes, syncNanos);
        }
        for (Op op : batch) {
            Runnable cb = callback(op);
            if (cb != null) {
                try {
                    cb.run();
                } catch (Throwable e) {
                    LOG.warn("state store: a durability callback failed: {}", e.toString(), e);
                }
            }
        }
    }

    /** Marks each persist that a later persist or delete of the same allocation in the batch makes moot. */
    private static boolean[] superseded(List<Op> batch) {
        boolean[] out = new boolean[batch.size()];
        Set<String> later = new HashSet<>();
        for (int i = batch.size() - 1; i >= 0; i--) {
            Op op = batch.get(i);
            if (op instanceof PersistOp p) {
                out[i] = !later.add(p.state().id());
            } else if (op instanceof DeleteOp d) {
                later.add(d.allocId());
            }
        }
        return out;
    }

    private void publishDurable(List<Op> batch, boolean[] superseded) {
        Set<String> handlesTouched = new HashSet<>();
        for (int i = 0; i < batch.size(); i++) {
            Op op = batch.get(i);
            if (op instanceof PersistOp p && !superseded[i]) {
                durable.put(p.state().id(), p.state());
            } else if (op instanceof DeleteOp d) {
                durable.remove(d.allocId());
                handlesTouched.add(d.allocId());
            } else if (op instanceof HandleOp h) {
                handlesTouched.add(h.allocId());
            }
        }
        for (String id : handlesTouched) {
            Map<String, Map<String, String>> of = handles.get(id);
            if (of == null) {
                durableHandles.remove(id);
            } else {
                durableHandles.put(id, Map.copyOf(of));
            }
        }
    }

    private static Runnable callback(Op op) {
        if (op instanceof PersistOp p) {
            return p.onDurable();
        } else if (op instanceof HandleOp h) {
            return h.onDurable();
        } else if (op instanceof DeleteOp d) {
            return d.onDurable();
        }
        return null;
    }

    /**
     * Folds everything into a new snapshot and switches to an empty journal. A failure before the snapshot is
     * in place leaves the journal in use (retried after another {@code compactBytes}); a failure after it is
     * fatal (the old journal is obsolete, appending to it would lose data at the next open).
     */
    private void compact() throws IOException {
        long gen = journal.gen();
        long t0 = System.nanoTime();
        try {
            Snapshots.write(files, codec, gen, written.values(), handles, jobs);
        } catch (IOException e) {
            compactAt = journal.size() + options.compactBytes();
            LOG.warn("state store: compaction into {} failed, continuing with {}: {}", files.snapshot(),
                    journal.path(), e.toString());
            return;
        }
        Journal next = Journal.create(files, gen + 1);
        Journal old = journal;
        journal = next;
        compactAt = options.compactBytes();
        old.close();
        try {
            Files.delete(old.path());
        } catch (IOException e) {
            LOG.warn("state store: could not remove {} (removed at next open): {}", old.path(), e.toString());
        }
        LOG.info("state store: compacted {} allocations into {} in {} ms", written.size(), files.snapshot(),
                (System.nanoTime() - t0) / 1_000_000);
    }
}
