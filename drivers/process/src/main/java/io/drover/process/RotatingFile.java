package io.drover.process;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * {@code <dir>/<base>.N} files of at most {@code maxFileSize} bytes, at most {@code maxFiles} of them. A new
 * instance continues the highest existing index (a restarted task appends, as Nomad's logmon does). Every open,
 * create and delete goes through a {@link LogDir} handle and never follows a link (the folder is the tasks'):
 * an entry a task planted where a log file goes is replaced by a new file, never written through. Not
 * thread-safe: used by the log-writer thread only (and once by the starting thread before the task runs).
 */
final class RotatingFile implements AutoCloseable {
    private final Native nat;
    private final Path dir;
    private final String base;
    private final LogRotation rotation;
    private int index;
    private long size;
    private int out = -1;

    /** {@code first} is the host's {@code <task>.stdout.0}: its folder and name without the index. */
    RotatingFile(Path first, LogRotation rotation) {
        this.nat = Native.get();
        this.dir = first.toAbsolutePath().getParent();
        String name = first.getFileName().toString();
        this.base = name.matches(".*\\.\\d+") ? name.substring(0, name.lastIndexOf('.')) : name;
        this.rotation = rotation;
        this.index = highestIndex();
    }

    Path current() {
        return dir.resolve(name(index));
    }

    private String name(int i) {
        return base + "." + i;
    }

    /** Opens (creating) the current file if it is not open. */
    void open() throws IOException {
        if (out < 0) {
            try (LogDir logs = LogDir.open(nat, dir)) {
                LogDir.Opened opened = logs.openAppend(name(index));
                out = opened.fd();
                size = opened.size();
            }
        }
    }

    void write(byte[] data, int off, int len) throws IOException {
        while (len > 0) {
            open();
            if (size >= rotation.maxFileSize()) {
                rotate();
                continue;
            }
            int n = (int) Math.min(len, rotation.maxFileSize() - size);
            long written = LogDir.write(nat, out, data, off, n, current());
            size += written; // counted as it goes: a write cut short by a full disk still counts
            off += (int) written;
            len -= (int) written;
        }
    }

    private void rotate() throws IOException {
        close();
        index++;
        int oldest = index - rotation.maxFiles();
        if (oldest < 0) {
            return;
        }
        try (LogDir logs = LogDir.open(nat, dir)) {
            for (int i = oldest; i >= 0; i--) {
                if (!logs.delete(name(i)) && i < oldest - 1) {
                    break;
                }
            }
        }
    }

    private int highestIndex() {
        int highest = 0;
        try (LogDir logs = LogDir.open(nat, dir)) {
            for (String name : logs.names(base + ".*")) {
                String suffix = name.substring(base.length() + 1);
                if (suffix.matches("\\d{1,9}")) {
                    highest = Math.max(highest, Integer.parseInt(suffix));
                }
            }
        } catch (NoSuchFileException e) {
            // no folder yet: start at 0
        } catch (IOException e) {
            // a folder replaced by a link: nothing is listed through it; opening fails later and says why
        }
        return highest;
    }

    @Override
    public void close() throws IOException {
        if (out >= 0) {
            nat.libc.close(out);
            out = -1;
        }
    }
}
