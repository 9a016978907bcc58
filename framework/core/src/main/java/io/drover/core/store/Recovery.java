package io.drover.core.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
        } else if (dirChanged) {
            files.syncDir();
        }
        return new Recovered(image, active);
    }
}
