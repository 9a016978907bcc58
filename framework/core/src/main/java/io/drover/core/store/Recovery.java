package io.drover.core.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a store directory: removes what an interrupted compaction left behind, loads the snapshot, replays the
 * journals newer than it in order, cuts off a torn tail of the newest journal (never acknowledged: callbacks
 * run only after the sync) and returns the journal to append to.
 */
final class Recovery {
    private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);

    record Recovered(StoreImage image, Journal journal) {}

    private Recovery() {}

    static Recovered open(StoreFiles files, RecordCodec codec) throws IOException {
        files.createDir();
        boolean dirChanged = false;
        Path tmp = files.snapshotTmp();
        if (Files.exists(tmp)) {
            LOG.warn("state store: removing {}, left by an interrupted compaction (the previous snapshot and "
                    + "journals are still complete)", tmp);
            Files.delete(tmp);
            dirChanged = true;
        }
        StoreImage image = new StoreImage();
        long snapshotGen = 0;
        if (Files.exists(files.snapshot())) {
            snapshotGen = Snapshots.read(files.snapshot(), codec, image);
        }
        List<Long> gens = files.journalGens();
        OptionalLong marked = files.markedGen();
        if (marked.isPresent()) {
            checkNothingMissing(files, marked.getAsLong(), snapshotGen, gens);
        }
        Journal active = null;
        for (int i = 0; i < gens.size(); i++) {
            long gen = gens.get(i);
            Path path = files.journal(gen);
            if (gen <= snapshotGen) {
                LOG.info("state store: removing {}, already folded into {}", path, files.snapshot());
                Files.delete(path);
                dirChanged = true;
                continue;
            }
            boolean newest = i == gens.size() - 1;
            byte[] data = FrameScanner.readAll(path);
            FrameScanner.Result r = ParallelDecoder.replay(path, data, Frames.JOURNAL_MAGIC, newest, codec,
                    (rec, offset) -> image.apply(rec, path, offset));
            if (!newest) {
                continue;
            }
            if (r.torn()) {
                LOG.warn("state store: {} ends with a torn record at offset {} ({} bytes, never acknowledged); "
                        + "truncating it", path, r.validEnd(), r.fileLength() - r.validEnd());
            }
            active = r.validEnd() < Frames.JOURNAL_MAGIC.length
                    ? Journal.create(files, gen)
                    : Journal.reopen(path, gen, r.validEnd());
        }
        if (active == null) {
            active = Journal.create(files, snapshotGen + 1);
        } else if (marked.isEmpty() || marked.getAsLong() != active.gen()) {
            files.markGen(active.gen()); // a store written before the marker existed
            files.syncDir();
        } else if (dirChanged) {
            files.syncDir();
        }
        return new Recovered(image, active);
    }

    /**
     * Refuses to open when a file the marker says was written is gone: the journal of the marked generation
     * (unless the snapshot covers it), or the snapshot once compaction has run (generation above 1). Starting
     * anyway would silently drop every allocation it held.
     */
    private static void checkNothingMissing(StoreFiles files, long marked, long snapshotGen, List<Long> gens)
            throws StoreRefusedException {
        String what = files.marker() + " says generation " + marked + " was written";
        if (marked > 1 && !Files.exists(files.snapshot())) {
            throw new StoreRefusedException("state store: " + files.snapshot() + " is missing (" + what
                    + ", so a snapshot was made); " + REFUSAL);
        }
        if (marked > snapshotGen && !gens.contains(marked)) {
            throw new StoreRefusedException("state store: " + files.journal(marked) + " is missing (" + what
                    + (snapshotGen > 0 ? " and " + files.snapshot() + " covers only up to " + snapshotGen : "")
                    + "); " + REFUSAL);
        }
    }

    private static final String REFUSAL = "refusing to open rather than start without the allocations it held "
            + "(put the file back, or move the store directory aside to start empty)";
}
