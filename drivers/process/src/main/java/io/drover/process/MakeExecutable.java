package io.drover.process;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import jnr.ffi.Pointer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a task's command executable before it is started, as Nomad's executor does ({@code makeExecutable}): a
 * script a template or artifact wrote without {@code perms} (mode 0644) runs instead of failing with exit code
 * 126. Only for a command inside one of the task's roots (its task directory or the allocation directory); a host
 * command ({@code /bin/sh}) is never touched.
 *
 * <p>This is a chmod by the agent (often root) on a path the task controls, so nothing a task could plant is
 * followed: every directory below the root is opened with {@code O_NOFOLLOW | O_DIRECTORY} from the one before,
 * the file itself with {@code O_NOFOLLOW | O_NONBLOCK} (a FIFO never blocks), and the mode is changed with
 * {@code fchmod} on that descriptor after {@code fstat} showed a regular file with exactly one link. A symbolic
 * link, a hard link (a task could hard-link a root-owned file into {@code local/} on the same file system: its
 * link count is then at least 2), a FIFO or a device is left alone; the exec then fails as it would have.
 *
 * <p>Blocking (a few syscalls); any thread, stateless.
 */
public final class MakeExecutable {
    private static final Logger LOG = LoggerFactory.getLogger(MakeExecutable.class);
    private static final int STAT_SIZE = 144;
    private static final int ST_NLINK = 16;
    private static final int ST_MODE = 24;
    private static final int S_IFMT = 0170000;
    private static final int S_IFREG = 0100000;
    /** What Nomad adds: read and execute for everyone. */
    private static final int REQUIRED = 0555;

    /** What {@link #ensure} did. */
    public enum Outcome {
        /** The execute bits were added. */
        MADE_EXECUTABLE,
        /** It already had them. */
        ALREADY_EXECUTABLE,
        /** Not inside any of the roots: not ours to change. */
        OUTSIDE,
        /** Nothing there (the exec reports it). */
        MISSING,
        /** A link, a hard link, a FIFO, a device or a folder on the way: left alone (logged at WARN). */
        REFUSED
    }

    private MakeExecutable() {}

    /**
     * Resolves {@code command} as the spawn will ({@link CommandResolver}: a path relative to {@code workDir}, or
     * a lookup on {@code path}) and {@link #ensure ensures} that file is executable.
     */
    public static Outcome forCommand(String command, String path, Path workDir, List<Path> roots) {
        Optional<Path> exe = CommandResolver.resolve(command, path, workDir.toAbsolutePath());
        return exe.isEmpty() ? Outcome.MISSING : ensure(exe.get(), roots);
    }

    /** Adds mode 0555 to {@code file} when it is a regular file of one link inside one of {@code roots}. */
    public static Outcome ensure(Path file, List<Path> roots) {
        Path f = file.toAbsolutePath().normalize();
        for (Path r : roots) {
            Path root = r.toAbsolutePath().normalize();
            if (f.startsWith(root) && !f.equals(root)) {
                return inside(Native.get(), root, root.relativize(f));
            }
        }
        return Outcome.OUTSIDE;
    }

    private static Outcome inside(Native nat, Path root, Path rel) {
        int dirFlags = Native.O_RDONLY | Native.O_DIRECTORY | Native.O_NOFOLLOW | Native.O_CLOEXEC;
        int fd = nat.libc.open(Native.cstr(root.toString()), dirFlags, 0);
        if (fd < 0) {
            return refusedOrMissing(nat, root, root, nat.errno());
        }
        try {
            Path at = root;
            for (int i = 0; i < rel.getNameCount() - 1; i++) {
                at = at.resolve(rel.getName(i));
                int next = nat.libc.openat(fd, Native.cstr(rel.getName(i).toString()), dirFlags, 0);
                if (next < 0) {
                    return refusedOrMissing(nat, root, at, nat.errno());
                }
                nat.libc.close(fd);
                fd = next;
            }
            Path target = root.resolve(rel);
            int file = nat.libc.openat(fd, Native.cstr(rel.getFileName().toString()),
                    Native.O_RDONLY | Native.O_NOFOLLOW | Native.O_NONBLOCK | Native.O_CLOEXEC, 0);
            if (file < 0) {
                return refusedOrMissing(nat, root, target, nat.errno());
            }
            try {
                return chmod(nat, file, target);
            } finally {
                nat.libc.close(file);
            }
        } finally {
            nat.libc.close(fd);
        }
    }

    private static Outcome chmod(Native nat, int file, Path target) {
        Pointer st = nat.allocate(STAT_SIZE);
        if (nat.libc.fstat(file, st) != 0) {
            return refused(target, "cannot be examined: " + nat.strerror(nat.errno()));
        }
        int mode = st.getInt(ST_MODE);
        long links = st.getLong(ST_NLINK);
        if ((mode & S_IFMT) != S_IFREG) {
            return refused(target, "is not a regular file");
        }
        if (links != 1) {
            return refused(target, "has " + links + " hard links (it may be a file from outside the task)");
        }
        if ((mode & REQUIRED) == REQUIRED) {
            return Outcome.ALREADY_EXECUTABLE;
        }
        // the permission bits only, as Nomad: a setuid or setgid bit is not carried over
        int wanted = (mode & 0777) | REQUIRED;
        if (nat.libc.fchmod(file, wanted) != 0) {
            return refused(target, "cannot be made executable: " + nat.strerror(nat.errno()));
        }
        LOG.debug("made {} executable (mode {} -> {})", target, Integer.toOctalString(mode & 07777),
                Integer.toOctalString(wanted));
        return Outcome.MADE_EXECUTABLE;
    }

    private static Outcome refusedOrMissing(Native nat, Path root, Path at, int errno) {
        if (errno == Native.ENOENT) {
            return Outcome.MISSING;
        }
        if (errno == Native.ELOOP) {
            return refused(at, "is a symbolic link");
        }
        if (errno == Native.ENOTDIR) {
            return refused(at, "is not a folder");
        }
        return refused(at, "cannot be opened: " + nat.strerror(errno));
    }

    private static Outcome refused(Path at, String why) {
        LOG.warn("not making the task's command executable: {} {}; refusing to follow or change it", at, why);
        return Outcome.REFUSED;
    }
}
