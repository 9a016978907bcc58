package io.drover.core.gc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The real {@link DiskProbe}: bytes from {@link FileStore}, inodes from {@code stat -f} (the JDK does not expose
 * {@code statvfs}'s inode counts). When {@code stat} is missing or fails, inode usage is unknown and the inode
 * check is skipped (one WARN). Blocking: GC thread only.
 */
public final class FileSystemProbe implements DiskProbe {
    private static final Logger LOG = LoggerFactory.getLogger(FileSystemProbe.class);
    private boolean inodeWarned;

    @Override
    public DiskUsage usage(Path dir) {
        long total;
        long used;
        try {
            FileStore fs = Files.getFileStore(dir);
            total = fs.getTotalSpace();
            used = total - fs.getUnallocatedSpace();
        } catch (IOException e) {
            LOG.warn("cannot read the disk usage of {}: {}; disk threshold not checked", dir, e.toString());
            return DiskUsage.UNKNOWN;
        }
        long[] inodes = inodes(dir);
        return new DiskUsage(total, used, inodes[0], inodes[0] - inodes[1]);
    }

    /** {total, free} inodes, or {0, 0} when unknown. */
    private long[] inodes(Path dir) {
        try {
            Process p = new ProcessBuilder("stat", "-f", "-c", "%c %d", dir.toString())
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(5, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("stat -f exited " + (p.isAlive() ? "late" : p.exitValue()) + ": " + out);
            }
            String[] parts = out.split("\\s+");
            return new long[] {Long.parseLong(parts[0]), Long.parseLong(parts[1])};
        } catch (IOException | RuntimeException e) {
            warnOnce(dir, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return new long[] {0, 0};
    }

    private void warnOnce(Path dir, String why) {
        if (!inodeWarned) {
            inodeWarned = true;
            LOG.warn("cannot read the inode usage of {} ({}); gc_inode_usage_threshold is not checked", dir, why);
        }
    }
}
