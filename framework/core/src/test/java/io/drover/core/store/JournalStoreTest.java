package io.drover.core.store;

import static io.drover.core.store.StoreFixtures.advance;
import static io.drover.core.store.StoreFixtures.initial;
import static io.drover.core.store.StoreFixtures.job;
import static io.drover.core.store.StoreFixtures.next;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.core.spec.Job;
import io.drover.core.state.AllocationState;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalStoreTest {
    @TempDir
    Path tmp;

    private Path dir() {
        return tmp.resolve("state");
    }

    /** Persists each state and waits until every callback ran. */
    static void persistAll(StateStore store, List<AllocationState> states) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(states.size());
        for (AllocationState s : states) {
            store.persist(s, done::countDown);
        }
        assertThat(done.await(30, TimeUnit.SECONDS)).as("all persisted").isTrue();
    }

    static void await(StateStore store) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        store.putHandle("barrier", "t", Map.of(), done::countDown);
        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
    }

    /** Several allocations, each persisted as many successive versions, interleaved. */
    private static Map<String, AllocationState> churn(JournalStore store, int allocs, int versions)
            throws InterruptedException {
        Map<String, AllocationState> latest = new HashMap<>();
        List<AllocationState> all = new ArrayList<>();
        for (int a = 0; a < allocs; a++) {
            latest.put("alloc-" + a, initial(job("job" + (a % 2)), "alloc-" + a, 1_000L + a));
            all.add(latest.get("alloc-" + a));
        }
        for (int v = 0; v < versions; v++) {
            for (int a = 0; a < allocs; a++) {
                AllocationState s = next(latest.get("alloc-" + a), StoreFixtures.TASKS.get(v % 3), 10_000L + v);
                latest.put(s.id(), s);
                all.add(s);
            }
        }
        persistAll(store, all);
        return latest;
    }

    private static Map<String, AllocationState> byId(List<AllocationState> states) {
        Map<String, AllocationState> m = new HashMap<>();
        states.forEach(s -> m.put(s.id(), s));
        return m;
    }

    @Test
    void roundTripRestoresLastVersionsWithEveryEventAndTheJob() throws Exception {
        Map<String, AllocationState> latest;
        try (JournalStore store = JournalStore.open(dir())) {
            latest = churn(store, 5, 40);
            store.putHandle("alloc-1", "main", Map.of("pid", "4242", "start", "99"), null);
            assertThat(byId(store.load())).isEqualTo(latest);
        }
        try (JournalStore store = JournalStore.open(dir())) {
            List<AllocationState> loaded = store.load();
            assertThat(byId(loaded)).isEqualTo(latest);
            AllocationState one = byId(loaded).get("alloc-3");
            assertThat(one.taskStates().get("main").events()).hasSize(13);
            assertThat(one.job()).isEqualTo(job("job1"));
            assertThat(one.taskStates().keySet()).containsExactlyElementsOf(StoreFixtures.TASKS);
            assertThat(store.handles("alloc-1")).isEqualTo(Map.of("main", Map.of("pid", "4242", "start", "99")));
            assertThat(loaded).extracting(AllocationState::id).startsWith("alloc-0", "alloc-1");
        }
    }

    @Test
    void jobRoundTripsThroughTheCodecEqual() throws Exception {
        RecordCodec codec = new RecordCodec();
        AllocationState s = advance(initial(job("j"), "a", 1), 12, 100);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        codec.write(Records.Rec.job(7, s.job()), out);
        byte[] jobBytes = out.toByteArray();
        Records.Rec jobBack = codec.read(jobBytes, 0, jobBytes.length);
        assertThat(jobBack.job()).isEqualTo(job("j"));
        assertThat(new String(jobBytes, java.nio.charset.StandardCharsets.UTF_8)).contains("\"killTimeout\":\"PT5S\"");
        out.reset();
        codec.write(Deltas.full(s, 7), out);
        byte[] bytes = out.toByteArray();
        Records.Rec back = codec.read(bytes, 0, bytes.length);
        assertThat(new String(bytes, java.nio.charset.StandardCharsets.UTF_8)).contains("[\"Received\",");
        StoreImage image = new StoreImage();
        image.apply(jobBack, Path.of("x"), 0);
        image.apply(back, Path.of("x"), 0);
        assertThat(image.allocations().get("a")).isEqualTo(s);
    }

    @Test
    void callbacksRunInQueueOrderOnTheWriterAfterTheSync() throws Exception {
        ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();
        List<String> threads = new ArrayList<>();
        int n = 2_000;
        try (JournalStore store = JournalStore.open(dir())) {
            store.commitListener = (ops, bytes, syncNanos) -> log.add("sync " + ops);
            CountDownLatch done = new CountDownLatch(n);
            AllocationState s = initial(job("j"), "a", 1);
            for (int i = 0; i < n; i++) {
                s = next(s, "main", 100 + i);
                int seq = i;
                store.persist(s, () -> {
                    log.add("cb " + seq);
                    if (seq == 0) {
                        threads.add(Thread.currentThread().getName());
                    }
                    done.countDown();
                });
            }
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        }
        int covered = 0;
        int expected = 0;
        for (String entry : log) {
            if (entry.startsWith("sync ")) {
                covered += Integer.parseInt(entry.substring(5));
            } else {
                assertThat(entry).isEqualTo("cb " + expected);
                expected++;
                assertThat(expected).as("callback after its batch's sync").isLessThanOrEqualTo(covered);
            }
        }
        assertThat(expected).isEqualTo(n);
        assertThat(threads).containsExactly("drover-store-writer");
        try (JournalStore store = JournalStore.open(dir())) {
            assertThat(store.load().get(0).taskStates().get("main").events()).hasSize(n);
        }
    }

    @Test
    void eightThreadsPersistingDifferentAllocations() throws Exception {
        int threads = 8;
        int versions = 300;
        Map<String, AllocationState> latest = new java.util.concurrent.ConcurrentHashMap<>();
        try (JournalStore store = JournalStore.open(dir())) {
            CountDownLatch done = new CountDownLatch(threads * versions);
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                String id = "alloc-" + t;
                Thread w = new Thread(() -> {
                    AllocationState s = initial(job("j"), id, 1);
                    for (int v = 0; v < versions; v++) {
                        s = next(s, StoreFixtures.TASKS.get(v % 3), 100 + v);
                        store.persist(s, done::countDown);
                    }
                    latest.put(id, s);
                });
                workers.add(w);
                w.start();
            }
            for (Thread w : workers) {
                w.join(30_000);
            }
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        }
        try (JournalStore store = JournalStore.open(dir())) {
            assertThat(byId(store.load())).isEqualTo(latest).hasSize(threads);
        }
    }

    @Test
    void tornTailIsTruncatedAndTheStoreStaysUsable() throws Exception {
        Map<String, AllocationState> latest;
        try (JournalStore store = JournalStore.open(dir())) {
            latest = churn(store, 2, 10);
        }
        Path journal = dir().resolve("journal-0000000001.log");
        long goodSize = Files.size(journal);
        // A frame header announcing 500 bytes followed by only 20 of them: a write cut short by a crash.
        ByteBuffer torn = ByteBuffer.allocate(28).putInt(500).putInt(0x1234).put(new byte[20]).flip();
        append(journal, torn);
        try (JournalStore store = JournalStore.open(dir())) {
            assertThat(byId(store.load())).isEqualTo(latest);
            assertThat(Files.size(journal)).isEqualTo(goodSize);
            AllocationState more = next(latest.get("alloc-0"), "main", 99_999);
            persistAll(store, List.of(more));
            latest.put(more.id(), more);
        }
        // Zeroed blocks past the end (allocated, never written) are a torn tail too.
        append(journal, ByteBuffer.allocate(4096));
        try (JournalStore store = JournalStore.open(dir())) {
            assertThat(byId(store.load())).isEqualTo(latest);
        }
    }

    @Test
    void corruptionInTheMiddleIsRefusedNamingFileAndOffset() throws Exception {
        try (JournalStore store = JournalStore.open(dir())) {
            AllocationState s = initial(job("j"), "a", 1);
            for (int i = 0; i < 3; i++) {
                s = next(s, "main", 100 + i);
                persistAll(store, List.of(s)); // one frame per batch
            }
        }
        Path journal = dir().resolve("journal-0000000001.log");
        int firstLength;
        try (FileChannel ch = FileChannel.open(journal, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer len = ByteBuffer.allocate(4);
            ch.read(len, 8);
            firstLength = len.flip().getInt();
            ch.write(ByteBuffer.wrap(new byte[] {'#'}), 8 + 8 + 20); // a flipped byte inside the first payload
        }
        assertThatThrownBy(() -> JournalStore.open(dir()))
                .isInstanceOf(StoreCorruptException.class)
                .hasMessage("state store is corrupt: " + journal + " at offset 8: checksum mismatch in a frame of "
                        + firstLength + " bytes; refusing to open (restore the file or move the store directory "
                        + "aside)");
        assertThat(Files.size(journal)).as("nothing truncated").isGreaterThan(8 + 8 + firstLength);
    }

    @Test
    void aBadLastFrameInAnOlderJournalIsCorruptionNotATornTail() throws Exception {
        try (JournalStore store = JournalStore.open(dir())) {
            churn(store, 1, 3);
        }
        Path old = dir().resolve("journal-0000000001.log");
        append(old, ByteBuffer.allocate(12).putInt(500).putInt(1).putInt(7).flip());
        Files.write(dir().resolve("journal-0000000002.log"), Frames.JOURNAL_MAGIC);
        assertThatThrownBy(() -> JournalStore.open(dir()))
                .isInstanceOf(StoreCorruptException.class)
                .hasMessageContaining(old.toString())
                .hasMessageContaining("runs past the end of the file");
    }

    @Test
    void compactionFoldsTheJournalIntoASnapshotAndReopens() throws Exception {
        Map<String, AllocationState> latest;
        try (JournalStore store = JournalStore.open(dir(), StoreOptions.DEFAULT.withCompactBytes(16 << 10))) {
            latest = churn(store, 6, 60);
            store.putHandle("alloc-2", "main", Map.of("pid", "7"), null);
            CountDownLatch deleted = new CountDownLatch(1);
            store.delete("alloc-5", deleted::countDown);
            assertThat(deleted.await(30, TimeUnit.SECONDS)).isTrue();
            latest.remove("alloc-5");
            latest = new HashMap<>(latest);
            for (AllocationState s : new ArrayList<>(latest.values())) {
                AllocationState n = advance(s, 20, 50_000);
                persistAll(store, List.of(n));
                latest.put(n.id(), n);
            }
        }
        assertThat(dir().resolve(StoreFiles.SNAPSHOT)).exists();
        try (Stream<Path> files = Files.list(dir())) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(f -> f.startsWith("journal-")))
                    .hasSize(1).doesNotContain("journal-0000000001.log");
        }
        try (JournalStore store = JournalStore.open(dir())) {
            assertThat(byId(store.load())).isEqualTo(latest);
            assertThat(store.handles("alloc-2")).containsKey("main");
        }
    }

    @Test
    void aGracefulCloseFoldsAJournalThatOutgrewTheStateIntoASnapshot() throws Exception {
        Map<String, AllocationState> latest;
        Path first = dir().resolve("journal-0000000001.log");
        try (JournalStore store = JournalStore.open(dir())) {
            latest = churn(store, 10, 1000);
            assertThat(Files.size(first)).as("journal before close")
                    .isGreaterThan(StoreOptions.DEFAULT.closeCompactBytes());
        }
        assertThat(dir().resolve(StoreFiles.SNAPSHOT)).exists();
        assertThat(first).doesNotExist();
        Path second = dir().resolve("journal-0000000002.log");
        assertThat(Files.size(second)).as("a fresh journal: its magic only").isLessThan(64);
        long snapshotBytes = Files.size(dir().resolve(StoreFiles.SNAPSHOT));
        try (JournalStore store = JournalStore.open(dir())) {
            assertThat(byId(store.load())).isEqualTo(latest);
            AllocationState more = next(latest.get("alloc-3"), "cleanup", 99_999);
            persistAll(store, List.of(more));
            latest.put(more.id(), more);
        }
        // a small journal is replayed faster than a snapshot is written: left as it is
        assertThat(second).exists();
        assertThat(Files.size(dir().resolve(StoreFiles.SNAPSHOT))).isEqualTo(snapshotBytes);
        try (JournalStore store = JournalStore.open(dir())) {
            assertThat(byId(store.load())).isEqualTo(latest);
        }
    }

    @Test
    void crashLeftoversOfCompactionStillLoad() throws Exception {
        Map<String, AllocationState> latest;
        try (JournalStore store = JournalStore.open(dir())) {
            latest = churn(store, 3, 20);
        }
        // 1. Crash while writing the temp snapshot: a half-written temp file beside the journal.
        Files.write(dir().resolve(StoreFiles.SNAPSHOT_TMP), new byte[] {'D', 'R', 'V', 'S', 0, 0, 1});
        try (JournalStore store = JournalStore.open(dir())) {
            assertThat(byId(store.load())).isEqualTo(latest);
        }
        assertThat(dir().resolve(StoreFiles.SNAPSHOT_TMP)).doesNotExist();

        // 2. Crash after the snapshot was renamed into place, before the new journal existed: the old journal
        // (already folded in) sits beside the new snapshot.
        StoreFiles files = new StoreFiles(dir());
        Snapshots.write(files, new RecordCodec(), 1, latest.values(), Map.of(),
                new JobRefs(Map.of()));
        assertThat(dir().resolve("journal-0000000001.log")).exists();
        try (JournalStore store = JournalStore.open(dir())) {
            assertThat(byId(store.load())).isEqualTo(latest);
            AllocationState more = next(latest.get("alloc-1"), "cleanup", 77_777);
            persistAll(store, List.of(more));
            latest.put(more.id(), more);
        }
        assertThat(dir().resolve("journal-0000000001.log")).doesNotExist();
        assertThat(dir().resolve("journal-0000000002.log")).exists();

        // 3. Crash while creating the next journal: its magic only half written.
        Snapshots.write(files, new RecordCodec(), 2, latest.values(), Map.of(),
                new JobRefs(Map.of()));
        Files.write(dir().resolve("journal-0000000003.log"), new byte[] {'D', 'R', 'V'});
        try (JournalStore store = JournalStore.open(dir())) {
            assertThat(byId(store.load())).isEqualTo(latest);
            persistAll(store, List.of(next(latest.get("alloc-0"), "main", 88_888)));
        }
        try (JournalStore store = JournalStore.open(dir())) {
            assertThat(byId(store.load()).get("alloc-0").modifyTime()).isEqualTo(88_888);
        }
    }

    @Test
    void aSnapshotWithoutItsEndIsCorruption() throws Exception {
        try (JournalStore store = JournalStore.open(dir())) {
            churn(store, 2, 2);
        }
        Path snap = dir().resolve(StoreFiles.SNAPSHOT);
        Snapshots.write(new StoreFiles(dir()), new RecordCodec(), 1, List.of(), Map.of(), new JobRefs(Map.of()));
        long size = Files.size(snap);
        try (FileChannel ch = FileChannel.open(snap, StandardOpenOption.WRITE)) {
            ch.truncate(size - 3);
        }
        assertThatThrownBy(() -> JournalStore.open(dir()))
                .isInstanceOf(StoreCorruptException.class)
                .hasMessageStartingWith("state store is corrupt: " + snap + " at offset ");
    }

    @Test
    void deleteRemovesTheAllocationAndItsHandles() throws Exception {
        try (JournalStore store = JournalStore.open(dir())) {
            churn(store, 3, 4);
            store.putHandle("alloc-1", "main", Map.of("pid", "1"), null);
            store.putHandle("alloc-2", "main", Map.of("pid", "2"), null);
            store.putHandle("alloc-2", "setup", Map.of("pid", "3"), null);
            store.putHandle("alloc-2", "setup", Map.of(), null);
            CountDownLatch done = new CountDownLatch(1);
            store.delete("alloc-1", done::countDown);
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(store.load()).extracting(AllocationState::id).containsExactly("alloc-0", "alloc-2");
        }
        try (JournalStore store = JournalStore.open(dir())) {
            assertThat(store.load()).extracting(AllocationState::id).containsExactly("alloc-0", "alloc-2");
            assertThat(store.handles("alloc-1")).isEmpty();
            assertThat(store.handles("alloc-2")).isEqualTo(Map.of("main", Map.of("pid", "2")));
            // A deleted allocation may come back as new.
            AllocationState again = next(initial(job("j"), "alloc-1", 5), "main", 6);
            persistAll(store, List.of(again));
        }
        try (JournalStore store = JournalStore.open(dir())) {
            assertThat(byId(store.load()).get("alloc-1").taskStates().get("main").events()).hasSize(1);
        }
    }

    @Test
    void eventsMustOnlyGrow() throws Exception {
        try (JournalStore store = JournalStore.open(dir())) {
            AllocationState v1 = advance(initial(job("j"), "a", 1), 6, 10);
            store.persist(v1, null);
            AllocationState rewritten = advance(initial(job("j"), "a", 1), 3, 99);
            assertThatThrownBy(() -> store.persist(rewritten, null))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("append-only");
        }
    }

    @Test
    void closeIsIdempotentAndRefusesLaterChanges() throws Exception {
        JournalStore store = JournalStore.open(dir());
        CountDownLatch done = new CountDownLatch(1);
        store.persist(initial(job("j"), "a", 1), done::countDown);
        store.close();
        assertThat(done.getCount()).as("close flushes and runs callbacks").isZero();
        store.close();
        assertThatThrownBy(() -> store.persist(initial(job("j"), "b", 1), null))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void directoryIsPrivateAndFilesOwnerOnly() throws Exception {
        try (JournalStore store = JournalStore.open(dir(), StoreOptions.DEFAULT.withCompactBytes(2048))) {
            churn(store, 2, 30);
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir()))).isEqualTo("rwx------");
        try (Stream<Path> files = Files.list(dir())) {
            for (Path f : files.toList()) {
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).as(f.toString())
                        .isEqualTo("rw-------");
            }
        }
    }

    @Test
    void tenThousandAllocationsLoadQuickly() throws Exception {
        int n = 10_000;
        Map<String, AllocationState> latest = new HashMap<>();
        Job[] jobs = {job("a"), job("b"), job("c")};
        try (JournalStore store = JournalStore.open(dir())) {
            List<AllocationState> versions = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                AllocationState s = advance(initial(jobs[i % 3], "alloc-" + i, i), 9, 100);
                versions.add(s);
                AllocationState s2 = StoreFixtures.stopped(advance(s, 9, 200), 300);
                versions.add(s2);
                latest.put(s2.id(), s2);
            }
            persistAll(store, versions);
        }
        long t0 = System.nanoTime();
        try (JournalStore store = JournalStore.open(dir())) {
            List<AllocationState> loaded = store.load();
            long ms = (System.nanoTime() - t0) / 1_000_000;
            System.out.println("opened and loaded " + loaded.size() + " allocations in " + ms + " ms");
            assertThat(loaded).hasSize(n);
            assertThat(byId(loaded)).isEqualTo(latest);
            // A sanity bound only: a cold JVM under surefire is slower than the benchmark (docs/performance.md).
            assertThat(ms).as("open + load of 10,000 allocations, ms").isLessThan(20_000);
        }
    }

    private static void append(Path file, ByteBuffer bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            while (bytes.hasRemaining()) {
                ch.write(bytes);
            }
        }
    }
}
