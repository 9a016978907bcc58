package io.drover.core.store;

import io.drover.core.spec.Job;
import io.drover.core.state.AllocationState;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collection;
import java.util.Map;

/**
 * Writes and reads the snapshot file: magic, an {@code S} record with the last journal generation it covers, one
 * full record per allocation, one record per driver handle, and an {@code E} record with the count of records in
 * between. A snapshot is only ever renamed into place complete and synced, so any defect in it is corruption.
 */
final class Snapshots {
    private static final int FLUSH_AT = 1 << 20;

    private Snapshots() {}

    /**
     * Writes a snapshot covering journals up to {@code gen} to the temp file, syncs it, renames it over
     * {@code state.snapshot} and syncs the directory. A crash before the rename leaves the old snapshot in force
     * (the temp file is deleted at the next open); after it, the new one.
     *
     * @throws RenamedNotSynced when only the final directory sync failed (the snapshot is in place)
     */
    static void write(StoreFiles files, RecordCodec codec, long gen, Collection<AllocationState> allocs,
            Map<String, Map<String, Map<String, String>>> handles, JobRefs jobs) throws IOException {
        Path tmp = files.snapshotTmp();
        Files.deleteIfExists(tmp);
        FrameBuffer buf = new FrameBuffer(codec, FLUSH_AT + (64 << 10));
        try (FileChannel ch = StoreFiles.openForWrite(tmp, true)) {
            buf.appendRaw(Frames.SNAPSHOT_MAGIC);
            buf.append(Records.Rec.snapshotStart(gen));
            for (Map.Entry<Long, Job> j : jobs.retain(allocs).entrySet()) {
                buf.append(Records.Rec.job(j.getKey(), j.getValue()));
            }
            for (AllocationState a : allocs) {
                buf.append(Deltas.full(a, jobs.ref(a.job(), buf)));
                if (buf.size() >= FLUSH_AT) {
                    buf.drainTo(ch);
                }
            }
            for (Map.Entry<String, Map<String, Map<String, String>>> a : handles.entrySet()) {
                for (Map.Entry<String, Map<String, String>> t : a.getValue().entrySet()) {
                    buf.append(Records.Rec.handle(a.getKey(), t.getKey(), t.getValue()));
                }
            }
            buf.append(Records.Rec.snapshotEnd(buf.frames() - 1));
            buf.drainTo(ch);
            ch.force(true);
        }
        Files.move(tmp, files.snapshot(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        try {
            files.syncDir();
        } catch (IOException e) {
            throw new RenamedNotSynced(e);
        }
    }

    /**
     * The new snapshot is in place but the directory sync after the rename failed: the journals it covers are
     * obsolete (a later open prefers the new snapshot if the rename reached the disk), so the writer must move
     * on to a new journal rather than append to the old one.
     */
    static final class RenamedNotSynced extends IOException {
        RenamedNotSynced(IOException cause) {
            super(cause.getMessage(), cause);
        }
    }

    /**
     * Reads the snapshot into {@code image}.
     *
     * @return the last journal generation the snapshot covers
     */
    static long read(Path file, RecordCodec codec, StoreImage image) throws IOException {
        byte[] data = FrameScanner.readAll(file);
        long[] gen = {-1};
        long[] count = {0};
        boolean[] ended = {false};
        ParallelDecoder.replay(file, data, Frames.SNAPSHOT_MAGIC, false, codec, (r, offset) -> {
            if (ended[0]) {
                throw new StoreCorruptException(file, offset, "record after the end of the snapshot");
            }
            if (gen[0] < 0) {
                if (!Records.SNAPSHOT_START.equals(r.type()) || r.gen() == null) {
                    throw new StoreCorruptException(file, offset, "snapshot does not start with its header");
                }
                gen[0] = r.gen();
            } else if (Records.SNAPSHOT_END.equals(r.type())) {
                if (r.count() == null || r.count() != count[0]) {
                    throw new StoreCorruptException(file, offset, "snapshot ends after " + count[0]
                            + " records but says " + r.count());
                }
                ended[0] = true;
            } else {
                image.apply(r, file, offset);
                count[0]++;
            }
        });
        if (!ended[0]) {
            throw new StoreCorruptException(file, data.length, "snapshot ends without its end record");
        }
        return gen[0];
    }
}
