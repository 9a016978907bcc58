package io.drover.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Driver handles within one batch: a handle that a later handle of the same task replaces, and the removal of a
 * handle the files never held, write no frame (a run that starts and ends within one group commit), while every
 * callback still runs and the reopened store holds exactly the handles it held before. The batch is made certain
 * by holding the writer inside the previous batch's write until every change is queued.
 */
class HandleFramesTest {
    @TempDir
    Path tmp;

    /** Holds the first write until released; writes through to the disk. */
    private static final class HeldWrite implements JournalIo {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public int write(FileChannel channel, ByteBuffer src) throws IOException {
            entered.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
            return JournalIo.REAL.write(channel, src);
        }

        @Override
        public void force(FileChannel channel) throws IOException {
            JournalIo.REAL.force(channel);
        }
    }

    @Test
    void handlesReplacedOrNeverHeldWithinOneBatchWriteNoFrameAndLoseNothing() throws Exception {
        Path dir = tmp.resolve("state");
        CountDownLatch callbacks = new CountDownLatch(6);
        try (JournalStore store = JournalStore.open(dir)) {
            HeldWrite io = new HeldWrite();
            store.io = io;
            store.putHandle("held", "main", Map.of("pid", "9"), callbacks::countDown); // its own batch
            assertThat(io.entered.await(30, TimeUnit.SECONDS)).isTrue();
            // one batch from here: the writer is inside the write of the one above
            store.putHandle("alloc-1", "main", Map.of("pid", "1"), callbacks::countDown); // started...
            store.putHandle("alloc-1", "main", Map.of(), callbacks::countDown); // ...and ended: no frame at all
            store.putHandle("alloc-2", "main", Map.of("pid", "2"), callbacks::countDown); // replaced: no frame
            store.putHandle("alloc-2", "main", Map.of("pid", "3"), callbacks::countDown);
            store.putHandle("held", "main", Map.of(), callbacks::countDown); // held by the files: its removal is written
            io.release.countDown();
            assertThat(callbacks.await(30, TimeUnit.SECONDS)).as("every callback ran").isTrue();
            assertThat(store.handles("alloc-1")).isEmpty();
            assertThat(store.handles("alloc-2")).isEqualTo(Map.of("main", Map.of("pid", "3")));
            assertThat(store.handles("held")).isEmpty();
            assertThat(handleFrames(dir)).containsExactly(
                    "{\"t\":\"H\",\"id\":\"held\",\"task\":\"main\",\"handle\":{\"pid\":\"9\"}}",
                    "{\"t\":\"H\",\"id\":\"alloc-2\",\"task\":\"main\",\"handle\":{\"pid\":\"3\"}}",
                    "{\"t\":\"H\",\"id\":\"held\",\"task\":\"main\",\"handle\":{}}");
            // a removal in a later batch of a handle the files hold is written
            JournalStoreTest.await(store);
            CountDownLatch removed = new CountDownLatch(1);
            store.putHandle("alloc-2", "main", Map.of(), removed::countDown);
            assertThat(removed.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(handleFrames(dir)).hasSize(4)
                    .last().isEqualTo("{\"t\":\"H\",\"id\":\"alloc-2\",\"task\":\"main\",\"handle\":{}}");
        }
        try (JournalStore store = JournalStore.open(dir)) {
            assertThat(store.handles("alloc-1")).isEmpty();
            assertThat(store.handles("alloc-2")).isEmpty();
            assertThat(store.handles("held")).isEmpty();
        }
    }

    @Test
    void aHandleReplacedInOneBatchReopensAsTheLastOne() throws Exception {
        Path dir = tmp.resolve("state");
        try (JournalStore store = JournalStore.open(dir)) {
            HeldWrite io = new HeldWrite();
            store.io = io;
            store.putHandle("alloc-0", "setup", Map.of("pid", "5"), null);
            assertThat(io.entered.await(30, TimeUnit.SECONDS)).isTrue();
            store.putHandle("alloc-3", "main", Map.of("pid", "1"), null);
            store.putHandle("alloc-3", "main", Map.of("pid", "2"), null);
            store.putHandle("alloc-3", "side", Map.of("pid", "4"), null);
            io.release.countDown();
            JournalStoreTest.await(store);
        }
        try (JournalStore store = JournalStore.open(dir)) {
            assertThat(store.handles("alloc-3")).isEqualTo(Map.of("main", Map.of("pid", "2"), "side",
                    Map.of("pid", "4")));
            assertThat(store.handles("alloc-0")).isEqualTo(Map.of("setup", Map.of("pid", "5")));
        }
    }

    /** The payloads of the journals' H frames, in file order (the store is open: no compaction happened). */
    private static List<String> handleFrames(Path dir) throws IOException {
        List<String> out = new ArrayList<>();
        List<Path> journals;
        try (Stream<Path> files = Files.list(dir)) {
            journals = files.filter(p -> p.getFileName().toString().startsWith("journal-")).sorted().toList();
        }
        for (Path j : journals) {
            byte[] b = Files.readAllBytes(j);
            int i = Frames.JOURNAL_MAGIC.length;
            while (i + Frames.HEADER <= b.length) {
                int n = ByteBuffer.wrap(b, i, 4).getInt();
                String payload = new String(b, i + Frames.HEADER, n, StandardCharsets.UTF_8);
                if (payload.startsWith("{\"t\":\"H\"")) {
                    out.add(payload);
                }
                i += Frames.HEADER + n;
            }
        }
        return out;
    }
}
