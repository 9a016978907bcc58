package io.drover.process;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jnr.ffi.Pointer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A task log folder ({@code alloc/logs}) opened as a directory handle, and the file operations the log writer
 * does in it, all relative to that handle and none following a symbolic link. The folder and its parent (the
 * group's shared {@code alloc/} dir) are writable by the allocation's tasks, so a task may have planted links,
 * FIFOs or hard links there, or replaced either folder by a link: both are opened with {@code Native.O_NOFOLLOW}
 * from their grandparent (the allocation dir, the agent's own), and a file is only appended to when it is a
 * regular file with one link, opened {@code Native.O_NOFOLLOW | O_NONBLOCK} (a planted FIFO never blocks the writer).
 * A planted entry in the way is unlinked (the name, never its target) and the file created anew with
 * {@code Native.O_EXCL}. Not thread-safe: one owner (the log-writer thread) per instance; close it after the operation.
 */
final class LogDir implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LogDir.class);

    static final int FILE_MODE = 0644;
    private static final int S_IFMT = 0170000;
    private static final int S_IFREG = 0100000;
    /** sizeof(struct stat) on x86_64, and the offsets of the fields read. */
    private static final int STAT_SIZE = 144;
    private static final int ST_NLINK = 16;
    private static final int ST_MODE = 24;
    private static final int ST_SIZE = 48;
    /** How often a name is unlinked and created again when a task keeps planting entries there. */
    private static final int ATTEMPTS = 8;

    private final Native nat;
    private final Path path;
    private final int fd;

    private LogDir(Native nat, Path path, int fd) {
        this.nat = nat;
        this.path = path;
        this.fd = fd;
    }

    /** A file opened for appending, and its size then. */
    record Opened(int fd, long size) {}

    /**
     * Opens {@code dir}: its grandparent as any path, then its parent and itself relative to it without following
     * links.
     *
     * @throws NoSuchFileException when a folder on the way does not exist
     * @throws IOException when one is a link or not a folder (the message names it)
     */
    static LogDir open(Native nat, Path dir) throws IOException {
        Path abs = dir.toAbsolutePath().normalize();
        Path parent = abs.getParent();
        if (parent == null || parent.getParent() == null) {
            throw new IOException("log folder " + abs + " has no parent and grandparent to anchor it");
        }
        int top = nat.libc.open(Native.cstr(parent.getParent().toString()),
                Native.O_RDONLY | Native.O_DIRECTORY | Native.O_CLOEXEC, 0);
        if (top < 0) {
            throw error(nat, "open", parent.getParent(), nat.errno());
        }
        int mid = -1;
        try {
            mid = openDir(nat, top, parent);
            return new LogDir(nat, abs, openDir(nat, mid, abs));
        } finally {
            nat.libc.close(top);
            if (mid >= 0) {
                nat.libc.close(mid);
            }
        }
    }

    private static int openDir(Native nat, int at, Path dir) throws IOException {
        int fd = nat.libc.openat(at, Native.cstr(dir.getFileName().toString()),
                Native.O_RDONLY | Native.O_DIRECTORY | Native.O_NOFOLLOW | Native.O_CLOEXEC, 0);
        if (fd < 0) {
            int errno = nat.errno();
            if (errno == Native.ELOOP || errno == Native.ENOTDIR) {
                throw new IOException("log folder " + dir + " is a link or not a folder; refusing to follow it");
            }
            throw error(nat, "open", dir, errno);
        }
        return fd;
    }

    Path path() {
        return path;
    }

    /**
     * Opens {@code name} for appending, creating it (mode 0644) when missing. An entry that is not a regular file
     * of one link (a symbolic link, FIFO, hard link, folder, ...) is not ours: it is unlinked and the file
     * created anew, with one WARN naming it.
     *
     * @throws IOException when the file cannot be opened or created (a planted folder included)
     */
    Opened openAppend(String name) throws IOException {
        byte[] cname = Native.cstr(name);
        int flags = Native.O_WRONLY | Native.O_APPEND | Native.O_NOFOLLOW | Native.O_NONBLOCK | Native.O_CLOEXEC;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int f = nat.libc.openat(fd, cname, flags, 0);
            if (f >= 0) {
                long size = regularSize(f);
                if (size >= 0) {
                    return new Opened(f, size);
                }
                nat.libc.close(f);
                removePlanted(name, "is not a regular file of one link");
                continue;
            }
            int errno = nat.errno();
            if (errno == Native.ENOENT) {
                f = nat.libc.openat(fd, cname, flags | Native.O_CREAT | Native.O_EXCL, FILE_MODE);
                if (f >= 0) {
                    return new Opened(f, 0);
                }
                errno = nat.errno();
                if (errno == Native.EEXIST) {
                    continue; // planted meanwhile: look again
                }
                throw error(nat, "create", path.resolve(name), errno);
            }
            if (errno == Native.ELOOP || errno == Native.ENXIO || errno == Native.EISDIR) {
                // a symbolic link (Native.O_NOFOLLOW), a FIFO without reader (O_NONBLOCK), a folder
                removePlanted(name, errno == Native.ELOOP ? "is a symbolic link" : errno == Native.ENXIO ? "is a FIFO"
                        : "is a folder");
                continue;
            }
            throw error(nat, "open", path.resolve(name), errno);
        }
        throw new IOException("cannot open " + path.resolve(name) + ": something keeps planting entries there");
    }

    /** @return the size of the open file {@code f} when it is a regular file with one link, else -1 */
    private long regularSize(int f) throws IOException {
        Pointer st = nat.allocate(STAT_SIZE);
        if (nat.libc.fstat(f, st) != 0) {
            int errno = nat.errno();
            nat.libc.close(f);
            throw error(nat, "stat", path, errno);
        }
        boolean regular = (st.getInt(ST_MODE) & S_IFMT) == S_IFREG && st.getLong(ST_NLINK) == 1;
        return regular ? st.getLong(ST_SIZE) : -1;
    }

    private void removePlanted(String name, String why) throws IOException {
        LOG.warn("{} {}, which the log writer never creates: removing that entry (not what it points to) and "
                + "writing a new file", path.resolve(name), why);
        if (nat.libc.unlinkat(fd, Native.cstr(name), 0) != 0) {
            int errno = nat.errno();
            if (errno != Native.ENOENT) {
                throw error(nat, "remove", path.resolve(name), errno);
            }
        }
    }

    /** Unlinks {@code name} (a link itself, never its target); false when there was none (or it is a folder). */
    boolean delete(String name) {
        return nat.libc.unlinkat(fd, Native.cstr(name), 0) == 0;
    }

    /** The names in the folder (read through the handle, so the folder opened, whatever its path is now). */
    List<String> names(String glob) throws IOException {
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(Path.of("/proc/self/fd/" + fd), glob)) {
            for (Path f : files) {
                names.add(f.getFileName().toString());
            }
        }
        return names;
    }

    /** Appends all of {@code len} bytes to the open {@code file}; a short write (disk full) is an IOException. */
    static long write(Native nat, int file, byte[] data, int off, int len, Path what) throws IOException {
        byte[] chunk = off == 0 && len == data.length ? data : java.util.Arrays.copyOfRange(data, off, off + len);
        long n = nat.libc.write(file, chunk, len);
        if (n < 0) {
            throw error(nat, "write", what, nat.errno());
        }
        if (n == 0) {
            throw new IOException("write " + what + ": no byte written");
        }
        return n;
    }

    private static IOException error(Native nat, String op, Path p, int errno) {
        String message = op + " " + p + ": " + nat.strerror(errno);
        if (errno == Native.ENOENT) {
            return new NoSuchFileException(message);
        }
        return new IOException(message);
    }

    @Override
    public void close() {
        nat.libc.close(fd);
    }
}
