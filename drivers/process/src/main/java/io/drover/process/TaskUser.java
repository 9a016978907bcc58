package io.drover.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A user a task runs as: its name, uid and primary gid from {@code /etc/passwd}. With a {@link SpawnSpec#user()}
 * the shim, which stays root, drops its child to {@code uid:gid} (supplementary groups: {@code gid} alone) right
 * before the task's execve. Immutable; the lookups read small files (blocking, a few microseconds); any thread.
 */
public record TaskUser(String name, int uid, int gid) {
    private static final Path PASSWD = Path.of("/etc/passwd");

    /** The user named {@code name} in {@code /etc/passwd}; empty when there is none (or the file is unreadable). */
    public static Optional<TaskUser> lookup(String name) {
        try {
            for (String line : Files.readAllLines(PASSWD, StandardCharsets.UTF_8)) {
                String[] f = line.split(":", -1);
                if (f.length > 3 && f[0].equals(name)) {
                    return Optional.of(new TaskUser(name, Integer.parseInt(f[2]), Integer.parseInt(f[3])));
                }
            }
        } catch (IOException | RuntimeException e) {
            // unreadable or malformed: as if absent
        }
        return Optional.empty();
    }

    /** This process's effective uid ({@code /proc/self/status}); empty when unknown. */
    public static Optional<Integer> effectiveUid() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8)) {
                if (line.startsWith("Uid:")) {
                    return Optional.of(Integer.parseInt(line.substring(4).trim().split("\\s+")[1]));
                }
            }
        } catch (IOException | RuntimeException e) {
            // unknown
        }
        return Optional.empty();
    }

    public boolean isRoot() {
        return uid == 0;
    }

    /** {@code uid:gid}, as the shim's {@code --user} takes it. */
    public String ids() {
        return uid + ":" + gid;
    }

    /**
     * Creates (when missing) and hands {@code dirs} to this user, never following a link; what exists and is not a
     * directory is refused. As the exec driver does for {@code local}, {@code secrets} and {@code tmp}.
     *
     * @throws IOException naming the path
     */
    public void own(List<Path> dirs) throws IOException {
        for (Path p : dirs) {
            if (Files.isSymbolicLink(p) || (Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(p))) {
                throw new IOException(p + " exists and is not a directory");
            }
            Files.createDirectories(p);
            Files.setAttribute(p, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
            Files.setAttribute(p, "unix:gid", gid, LinkOption.NOFOLLOW_LINKS);
        }
    }
}
