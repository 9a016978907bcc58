package io.drover.core.store;

import static io.drover.core.store.StoreFixtures.advance;
import static io.drover.core.store.StoreFixtures.initial;
import static io.drover.core.store.StoreFixtures.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.core.spec.Job;
import io.drover.core.state.AllocationState;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A journal large enough to be decoded on several threads replays exactly, and its damage is still found. */
class ParallelReplayTest {
    @TempDir
    Path dir;

    @Test
    void aLargeJournalDecodedInParallelLoadsEveryVersionInOrder() throws Exception {
        List<AllocationState> latest = write(2 * ParallelDecoder.MIN_PER_THREAD);
        try (JournalStore store = JournalStore.open(dir)) {
            assertThat(store.load()).containsExactlyElementsOf(latest);
        }
    }

    @Test
    void smallWindowsVisitTheSameRecordsAtTheSameOffsetsAsASequentialScan() throws Exception {
        write(2 * ParallelDecoder.MIN_PER_THREAD);
        Path journal = dir.resolve("journal-0000000001.log");
        byte[] data = FrameScanner.readAll(journal);
        RecordCodec codec = new RecordCodec();
        List<String> sequential = new ArrayList<>();
        FrameScanner.scan(journal, data, Frames.JOURNAL_MAGIC, true,
                (buf, off, len, offset) -> sequential.add(offset + " " + codec.read(buf, off, len)));
        List<String> windowed = new ArrayList<>();
        ParallelDecoder.replay(journal, data, Frames.JOURNAL_MAGIC, true, codec,
                (rec, offset) -> windowed.add(offset + " " + rec), ParallelDecoder.MIN_PER_THREAD + 1);
        assertThat(sequential.size()).as("more than one window")
                .isGreaterThan(ParallelDecoder.MIN_PER_THREAD + 1);
        assertThat(windowed).isEqualTo(sequential);
    }

    @Test
    void aDamagedRecordInTheLastChunkIsReportedAtItsOffset() throws Exception {
        write(2 * ParallelDecoder.MIN_PER_THREAD);
        Path journal = dir.resolve("journal-0000000001.log");
        long offset;
        try (RandomAccessFile f = new RandomAccessFile(journal.toFile(), "rw")) {
            // Append a frame whose CRC is right but whose payload is not a record: only decoding can tell.
            offset = f.length();
            byte[] payload = "{\"t\":\"A\",\"h\":[1,2]}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            byte[] frame = new byte[Frames.HEADER + payload.length];
            System.arraycopy(payload, 0, frame, Frames.HEADER, payload.length);
            java.nio.ByteBuffer.wrap(frame).putInt(payload.length);
            java.nio.ByteBuffer.wrap(frame).putInt(4, Frames.crc(frame, 0, payload.length));
            f.seek(offset);
            f.write(frame);
            f.write(frame); // not the last frame: a torn tail would be cut off instead
        }
        assertThatThrownBy(() -> JournalStore.open(dir)).isInstanceOf(StoreCorruptException.class)
                .hasMessageContaining("at offset " + offset + ": unreadable record");
    }

    /** {@code n} allocations of two versions each; returns the latest versions in load order. */
    private List<AllocationState> write(int n) throws Exception {
        Job[] jobs = {job("a"), job("b")};
        List<AllocationState> latest = new ArrayList<>();
        // kept as a journal at close: these tests decode the journal itself
        try (JournalStore store = JournalStore.open(dir, StoreOptions.DEFAULT.withCloseCompactBytes(0))) {
            CountDownLatch done = new CountDownLatch(2 * n);
            for (int i = 0; i < n; i++) {
                AllocationState first = advance(initial(jobs[i % 2], String.format("alloc-%06d", i), i), 2, 100);
                AllocationState second = advance(first, 3, 200);
                store.persist(first, done::countDown);
                store.persist(second, done::countDown);
                latest.add(second);
            }
            assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
        }
        return latest;
    }
}
