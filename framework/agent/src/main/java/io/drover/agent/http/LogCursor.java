package io.drover.agent.http;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;

/**
 * A read position in a task's log, which is the concatenation of its files {@code .0}, {@code .1}, ... Reads
 * move on to the next file once the current one is drained and a later one exists. Files are opened per read
 * with {@code O_NOFOLLOW}, each after a check that the name is still a regular file (the folder is the tasks': a
 * FIFO swapped in after the listing would block the open until a writer came). Not thread-safe: one owner at a
 * time (a server thread, then a follower tick).
 */
final class LogCursor {
    private final Path logDir;
    private final String task;
    private final String type;
    private LogFiles.Indexed current; // null until a file exists
    private long pos;

    LogCursor(Path logDir, String task, String type) {
        this.logDir = logDir;
        this.task = task;
        this.type = type;
    }

    /** Positions at {@code offset} bytes from the start ({@code origin=start}) or the end ({@code end}). */
    void seek(boolean fromEnd, long offset) throws IOException {
        List<LogFiles.Indexed> files = LogFiles.list(logDir, task, type);
        long total = 0;
        long[] sizes = new long[files.size()];
        for (int i = 0; i < files.size(); i++) {
            sizes[i] = sizeOf(files.get(i).path());
            total += sizes[i];
        }
        long target = fromEnd ? Math.max(0, total - offset) : Math.min(offset, total);
        for (int i = 0; i < files.size(); i++) {
            if (target <= sizes[i] || i == files.size() - 1) {
                current = files.get(i);
                pos = Math.min(target, sizes[i]);
                return;
            }
            target -= sizes[i];
        }
    }

    /** Reads what is there now into {@code buf}; 0 when nothing new. */
    int read(ByteBuffer buf) throws IOException {
        while (true) {
            if (current == null && !advance()) {
                return 0;
            }
            int n = readCurrent(buf);
            if (n > 0) {
                return n;
            }
            if (!advance()) {
                return 0;
            }
        }
    }

    /** The current file's name relative to the allocation dir, as Nomad's frames name it. */
    String file() {
        return current == null ? "" : "alloc/logs/" + current.path().getFileName();
    }

    /** Offset of the next byte in {@link #file()}. */
    long offset() {
        return pos;
    }

    private int readCurrent(ByteBuffer buf) throws IOException {
        if (!regular(current.path())) {
            return 0; // replaced by something else since it was listed (a FIFO would block the open): skip it
        }
        try (FileChannel ch = FileChannel.open(current.path(), StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            int n = ch.read(buf, pos);
            if (n > 0) {
                pos += n;
                return n;
            }
            return 0;
        } catch (NoSuchFileException e) {
            return 0; // rotated away: advance() finds the next one
        }
    }

    /** Moves to the first file after the current one; false when there is none. */
    private boolean advance() throws IOException {
        for (LogFiles.Indexed f : LogFiles.list(logDir, task, type)) {
            if (current == null || f.index() > current.index()) {
                current = f;
                pos = 0;
                return true;
            }
        }
        return false;
    }

    /** Checked right before each open: the file was listed as regular, but a task may have swapped it since. */
    private static boolean regular(Path p) {
        try {
            return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isRegularFile();
        } catch (IOException e) {
            return false; // gone: rotated away
        }
    }

    private static long sizeOf(Path p) {
        if (!regular(p)) {
            return 0;
        }
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            return ch.size();
        } catch (IOException e) {
            return 0;
        }
    }
}
