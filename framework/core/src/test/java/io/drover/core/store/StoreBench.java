package io.drover.core.store;

import static io.drover.core.store.StoreFixtures.advance;
import static io.drover.core.store.StoreFixtures.initial;
import static io.drover.core.store.StoreFixtures.job;
import static io.drover.core.store.StoreFixtures.next;

import io.drover.core.spec.Job;
import io.drover.core.state.AllocationState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Benchmark of {@link JournalStore} (not a test): durable event throughput with group commit (8 producer
 * threads, each persisting successive versions of its own allocations, one new event per version), the sync
 * latency of each batch, and the time to open a store holding 10,000 allocations. Reproduce: see
 * docs/performance.md, section "State store".
 *
 * <p>Arguments: {@code [dir] [seconds] [threads]}; the directory is created under /tmp when omitted.
 */
public final class StoreBench {
    private StoreBench() {}

    public static void main(String[] args) throws Exception {
        Path base = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("drover-store-bench");
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 8;
        System.out.printf("store bench in %s, java %s, %d cores%n", base, System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors());
        throughput(base.resolve("throughput"), 2, threads, false); // warm-up
        throughput(base.resolve("throughput2"), seconds, threads, true);
        for (int round = 0; round < 3; round++) {
            load(base.resolve("load" + round), 10_000, round == 2);
        }
    }

    static void throughput(Path dir, int seconds, int threads, boolean report) throws Exception {
        List<long[]> batches = new ArrayList<>();
        AtomicLong acked = new AtomicLong();
        AtomicLong ackedAtDeadline = new AtomicLong();
        try (JournalStore store = JournalStore.open(dir)) {
            store.commitListener = (ops, bytes, syncNanos) -> batches.add(new long[] {ops, bytes, syncNanos});
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            CountDownLatch producersDone = new CountDownLatch(threads);
            long t0 = System.nanoTime();
            for (int t = 0; t < threads; t++) {
                int id = t;
                java.util.concurrent.Semaphore inFlight = new java.util.concurrent.Semaphore(4096);
                Thread p = new Thread(() -> {
                    Job job = job("bench");
                    int allocs = 0;
                    while (System.nanoTime() < deadline) {
                        // A fresh allocation every 60 events keeps versions of realistic size.
                        AllocationState s = initial(job, "alloc-" + id + "-" + allocs++, System.nanoTime());
                        for (int e = 0; e < 60 && System.nanoTime() < deadline; e++) {
                            s = next(s, StoreFixtures.TASKS.get(e % 3), System.nanoTime());
                            // At most 4,096 versions in flight per producer (blocks, never spins).
                            inFlight.acquireUninterruptibly();
                            store.persist(s, () -> {
                                acked.incrementAndGet();
                                inFlight.release();
                            });
                        }
                    }
                    producersDone.countDown();
                });
                p.start();
            }
            producersDone.await();
            long beforeClose = acked.get();
            long elapsed = System.nanoTime() - t0;
            ackedAtDeadline.set(beforeClose);
            store.close();
            if (!report) {
                return;
            }
            long total = acked.get();
            double secs = elapsed / 1e9;
            long[] sync = batches.stream().mapToLong(b -> b[2]).sorted().toArray();
            double meanOps = batches.stream().mapToLong(b -> b[0]).average().orElse(0);
            double meanBytes = batches.stream().mapToLong(b -> b[1]).average().orElse(0);
            System.out.printf("throughput: %d threads, %.1f s: %,d events durable before the deadline "
                    + "(%,.0f events/s), %,d after close%n", threads, secs, beforeClose, beforeClose / secs, total);
            System.out.printf("group commit: %,d batches, mean %.0f events and %.0f KiB per batch%n", sync.length,
                    meanOps, meanBytes / 1024);
            System.out.printf("sync (fdatasync) per batch: p50 %.2f ms, p99 %.2f ms, max %.2f ms%n",
                    pct(sync, 50) / 1e6, pct(sync, 99) / 1e6, sync[sync.length - 1] / 1e6);
        }
    }

    static void load(Path dir, int n, boolean report) throws Exception {
        Job[] jobs = {job("a"), job("b"), job("c")};
        try (JournalStore store = JournalStore.open(dir)) {
            CountDownLatch done = new CountDownLatch(n * 2);
            for (int i = 0; i < n; i++) {
                AllocationState s = advance(initial(jobs[i % 3], "alloc-" + i, i), 9, 100);
                store.persist(s, done::countDown);
                store.persist(StoreFixtures.stopped(advance(s, 9, 200), 300), done::countDown);
            }
            done.await();
        }
        long t0 = System.nanoTime();
        int loaded;
        try (JournalStore store = JournalStore.open(dir)) {
            loaded = store.load().size();
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        if (report) {
            long bytes;
            try (Stream<Path> files = Files.list(dir)) {
                bytes = files.mapToLong(p -> p.toFile().length()).sum();
            }
            System.out.printf("load: opened a store of %,d allocations (3 tasks, 18 events each, %.1f MiB) "
                    + "and loaded them in %d ms%n", loaded, bytes / 1048576.0, ms);
        }
    }

    private static long pct(long[] sorted, int p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }
}
