package io.drover.core.store;

import static io.drover.core.store.StoreFixtures.initial;
import static io.drover.core.store.StoreFixtures.job;
import static io.drover.core.store.StoreFixtures.next;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.state.AllocationState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Disk errors at the journal's file-channel edge ({@link FaultyIo}): the store holds the changes, keeps the file
 * clean (a torn append is cut back), acknowledges nothing that is not on disk, and catches up when the disk
 * takes writes again. The real thing (a full tmpfs under a real agent) is in the cli module's DataDirFullTest.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StoreDiskFaultTest {
    private static final StoreOptions FAST = StoreOptions.DEFAULT.withRetry(Duration.ofMillis(20),
            Duration.ofMillis(300));

    @TempDir
    Path tmp;

    private Path dir() {
        return tmp.resolve("state");
    }

    private Path journal() {
        return dir().resolve("journal-0000000001.log");
    }

    private static Map<String, AllocationState> byId(List<AllocationState> states) {
        Map<String, AllocationState> m = new HashMap<>();
        states.forEach(s -> m.put(s.id(), s));
        return m;
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what).isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    @Test
    void aTornAppendIsCutBackTheChangesAreHeldAndWrittenWhenTheDiskTakesWritesAgain() throws Exception {
        FaultyIo io = new FaultyIo();
        AllocationState a1 = initial(job("j"), "a", 1);
        AllocationState a2 = next(a1, "main", 200);
        AllocationState a3 = next(a2, "main", 300);
        AllocationState b1 = initial(job("k"), "b", 2);
        ConcurrentLinkedQueue<String> acked = new ConcurrentLinkedQueue<>();
        try (JournalStore store = JournalStore.open(dir(), FAST)) {
            store.io = io;
            JournalStoreTest.persistAll(store, List.of(a1));
            long durableSize = Files.size(journal());

            io.tornBytes = 30; // a frame header and part of a payload reach the file
            io.failWrites = "No space left on device";
            store.persist(a2, () -> acked.add("a2"));
            store.putHandle("a", "main", Map.of("pid", "42"), () -> acked.add("handle"));
            await("stall reported", () -> store.stall().isPresent() && io.failedWrites.get() >= 2);
            store.persist(b1, () -> acked.add("b1"));
            store.persist(a3, () -> acked.add("a3")); // supersedes a2 while held

            StoreStall stall = store.stall().orElseThrow();
            assertThat(stall.file()).isEqualTo(journal());
            assertThat(stall.reason()).isEqualTo("No space left on device");
            assertThat(stall.describe()).startsWith("state store cannot write to " + journal()
                    + ": No space left on device; ").contains("change(s) held in memory");
            assertThat(acked).as("nothing acknowledged that is not on disk").isEmpty();
            assertThat(store.load()).containsExactly(a1);
            assertThat(store.handles("a")).isEmpty();
            assertThat(Files.size(journal())).as("the torn append is cut back").isEqualTo(durableSize);
            Path copy = copyOf(dir());
            try (JournalStore next = JournalStore.open(copy)) {
                assertThat(next.load()).as("what the next agent would open").containsExactly(a1);
            }

            io.failWrites = null;
            await("held changes written", () -> acked.size() == 4);
            assertThat(acked).containsExactly("a2", "handle", "b1", "a3");
            assertThat(store.stall()).isEmpty();
            assertThat(byId(store.load())).isEqualTo(Map.of("a", a3, "b", b1));
        }
        try (JournalStore store = JournalStore.open(dir())) {
            assertThat(byId(store.load())).isEqualTo(Map.of("a", a3, "b", b1));
            assertThat(store.handles("a")).isEqualTo(Map.of("main", Map.of("pid", "42")));
        }
    }

    @Test
    void aLongStallKeepsOneStatePerAllocationAndStillWritesEveryEventAndCallbackInOrder() throws Exception {
        FaultyIo io = new FaultyIo();
        AllocationState a = initial(job("j"), "a", 1);
        AllocationState b = initial(job("k"), "b", 2);
        ConcurrentLinkedQueue<String> acked = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> superseded = new ConcurrentLinkedQueue<>();
        List<String> expected = new java.util.ArrayList<>();
        try (JournalStore store = JournalStore.open(dir(), StoreOptions.DEFAULT.withRetry(Duration.ofMillis(5),
                Duration.ofMillis(20)))) {
            store.io = io;
            JournalStoreTest.persistAll(store, List.of(a, b));
            io.failWrites = "No space left on device";
            for (int round = 0; round < 10; round++) {
                for (int i = 0; i < 20; i++) { // 20 versions of each allocation per batch, each with one more event
                    a = next(a, StoreFixtures.TASKS.get(i % 3), 1000 + round * 100 + i);
                    b = next(b, "main", 5000 + round * 100 + i);
                    String na = "a" + round + "." + i;
                    String nb = "b" + round + "." + i;
                    store.persist(a, callback(na, acked, superseded));
                    store.persist(b, callback(nb, acked, superseded));
                    expected.add(na);
                    expected.add(nb);
                }
                int attempts = io.failedWrites.get();
                await("a retry took round " + round, () -> io.failedWrites.get() > attempts + 1);
            }
            assertThat(acked).as("nothing acknowledged that is not on disk").isEmpty();
            assertThat(store.heldStates()).as("400 versions held: one state per allocation kept").isEqualTo(2);
            assertThat(superseded).as("every held version but the latest of each allocation told so, once")
                    .containsExactlyElementsOf(expected.subList(0, expected.size() - 2));

            io.failWrites = null;
            await("held changes written", () -> acked.size() == expected.size());
            assertThat(acked).as("every callback, in queue order").containsExactlyElementsOf(expected);
            assertThat(byId(store.load())).isEqualTo(Map.of("a", a, "b", b));
        }
        try (JournalStore store = JournalStore.open(dir())) {
            assertThat(byId(store.load())).as("every event on disk").isEqualTo(Map.of("a", a, "b", b));
            assertThat(byId(store.load()).get("b").taskStates().get("main").events()).hasSize(200);
        }
    }

    /** A callback that notes when it runs and when the store tells it that a later held version supersedes it. */
    private static StateStore.Supersedable callback(String name, ConcurrentLinkedQueue<String> acked,
            ConcurrentLinkedQueue<String> superseded) {
        return new StateStore.Supersedable() {
            @Override
            public void superseded() {
                superseded.add(name);
            }

            @Override
            public void run() {
                acked.add(name);
            }
        };
    }

    @Test
    void aFailedSyncIsNotTrustedTheBatchIsWrittenAgainFromTheDurableEnd() throws Exception {
        FaultyIo io = new FaultyIo();
        AllocationState a1 = initial(job("j"), "a", 1);
        AllocationState a2 = next(a1, "main", 200);
        CountDownLatch acked = new CountDownLatch(1);
        try (JournalStore store = JournalStore.open(dir(), FAST)) {
            store.io = io;
            JournalStoreTest.persistAll(store, List.of(a1));
            long durableSize = Files.size(journal());
            long before = io.bytesWritten.get();

            io.failSyncs = "Input/output error";
            store.persist(a2, acked::countDown);
            await("stall reported", () -> store.stall().isPresent() && io.failedSyncs.get() >= 2);
            long perAttempt = io.bytesWritten.get() - before;
            assertThat(acked.getCount()).isEqualTo(1);
            assertThat(store.stall().orElseThrow().reason()).isEqualTo("Input/output error");
            assertThat(Files.size(journal())).isEqualTo(durableSize);

            io.failSyncs = null;
            assertThat(acked.await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(io.bytesWritten.get() - before).as("written again after the failed syncs")
                    .isGreaterThan(perAttempt);
            assertThat(Files.size(journal())).as("once, at the durable end")
                    .isEqualTo(durableSize + (io.bytesWritten.get() - before) / (io.failedSyncs.get() + 1));
        }
        try (JournalStore store = JournalStore.open(dir())) {
            assertThat(store.load()).containsExactly(a2);
        }
    }

    @Test
    void closeWhileTheDiskRefusesWritesGivesUpAfterItsWaitAndLeavesTheDurableState() throws Exception {
        FaultyIo io = new FaultyIo();
        AllocationState a1 = initial(job("j"), "a", 1);
        JournalStore store = JournalStore.open(dir(), FAST);
        store.io = io;
        JournalStoreTest.persistAll(store, List.of(a1));
        long durableSize = Files.size(journal());
        io.tornBytes = 17;
        io.failWrites = "Read-only file system";
        store.persist(next(a1, "main", 200), null);
        store.persist(initial(job("k"), "b", 2), null);
        await("stall reported", () -> store.stall().isPresent());

        long t0 = System.nanoTime();
        store.close();
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);

        assertThat(ms).as("bounded by closeWait (300 ms) and one retry wait").isLessThan(5_000);
        assertThat(store.unwrittenAtClose()).isEqualTo(2);
        assertThat(Files.size(journal())).isEqualTo(durableSize);
        try (JournalStore reopened = JournalStore.open(dir())) {
            assertThat(reopened.load()).containsExactly(a1);
        }
    }

    @Test
    void closeWaitsForHeldChangesWhenTheDiskRecoversInTime() throws Exception {
        FaultyIo io = new FaultyIo();
        AllocationState a1 = initial(job("j"), "a", 1);
        AllocationState a2 = next(a1, "main", 200);
        JournalStore store = JournalStore.open(dir(), StoreOptions.DEFAULT.withRetry(Duration.ofMillis(20),
                Duration.ofSeconds(30)));
        store.io = io;
        io.failWrites = "No space left on device";
        store.persist(a2, null);
        await("stall reported", () -> store.stall().isPresent());
        Thread closer = new Thread(store::close);
        closer.start();
        io.failWrites = null;
        closer.join(20_000);
        assertThat(closer.isAlive()).isFalse();
        assertThat(store.unwrittenAtClose()).isZero();
        try (JournalStore reopened = JournalStore.open(dir())) {
            assertThat(reopened.load()).containsExactly(a2);
        }
    }

    private Path copyOf(Path src) throws Exception {
        Path dst = tmp.resolve("copy");
        Files.createDirectories(dst);
        try (Stream<Path> files = Files.list(src)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.copy(f, dst.resolve(f.getFileName()));
            }
        }
        return dst;
    }
}
