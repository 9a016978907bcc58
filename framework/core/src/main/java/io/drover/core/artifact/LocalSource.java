package io.drover.core.artifact;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A local file or directory as an artifact source. The agent copies as its own (often root) user what job content
 * names, so it copies only what <em>every</em> user of the host may read: each directory on the real path
 * searchable by others, the file (and, for a directory, every file and directory in it) readable by others. A job
 * thus gets nothing through an artifact that a task running as nobody could not read itself. Links inside a
 * copied directory are refused. Blocking.
 */
final class LocalSource {
    private LocalSource() {}

    /** The real path of {@code path}, once it and every directory above it pass the world-readable rule. */
    static Path check(Path path, String shown) throws IOException, ArtifactException {
        Path real;
        try {
            real = path.toRealPath();
        } catch (java.nio.file.NoSuchFileException e) {
            throw new ArtifactException("artifact source " + shown + " does not exist");
        }
        for (Path dir = real.getParent(); dir != null; dir = dir.getParent()) {
            if (!perms(dir).contains(PosixFilePermission.OTHERS_EXECUTE)) {
                throw new ArtifactException("artifact source " + shown + ": directory " + dir
                        + " is not searchable by every user (o+x); Drover copies only world-readable sources");
            }
        }
        readable(real, shown);
        return real;
    }

    private static void readable(Path p, String shown) throws IOException, ArtifactException {
        Set<PosixFilePermission> perms = perms(p);
        boolean dir = Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS);
        if (!perms.contains(PosixFilePermission.OTHERS_READ)
                || (dir && !perms.contains(PosixFilePermission.OTHERS_EXECUTE))) {
            throw new ArtifactException("artifact source " + shown + ": " + p + " is not readable by every user "
                    + "(o+r); Drover copies only world-readable sources");
        }
    }

    private static Set<PosixFilePermission> perms(Path p) throws IOException {
        return Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS).permissions();
    }

    /** Copies a checked file to {@code target} (created new, no link followed). */
    static void copyFile(Path real, Path target, Bounded budget, String shown) throws IOException, ArtifactException,
            InterruptedException {
        try (InputStream in = Files.newInputStream(real, LinkOption.NOFOLLOW_LINKS);
                OutputStream out = Files.newOutputStream(target, StandardOpenOption.CREATE_NEW,
                        StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            budget.copy(in, out, shown);
        }
        Files.setPosixFilePermissions(target, Unpacker.permissions(
                perms(real).contains(PosixFilePermission.OWNER_EXECUTE) ? 0755 : 0644));
    }

    /** Copies a checked directory's tree into {@code dest} (inside {@code root}). */
    static void copyTree(Path real, Path dest, Path root, Bounded budget, String shown) throws IOException,
            ArtifactException, InterruptedException {
        SafeFiles.mkdirs(root, dest);
        try (Stream<Path> walk = Files.walk(real)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                if (p.equals(real)) {
                    continue;
                }
                Path target = dest.resolve(real.relativize(p).toString()).normalize();
                if (Files.isSymbolicLink(p)) {
                    throw new ArtifactException("artifact source " + shown + ": " + p + " is a symbolic link; "
                            + "refused");
                }
                readable(p, shown);
                if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    SafeFiles.mkdirs(root, target);
                } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    SafeFiles.mkdirs(root, target.getParent());
                    SafeFiles.clearFile(root, target);
                    copyFile(p, target, budget, shown);
                } else {
                    throw new ArtifactException("artifact source " + shown + ": " + p + " is not a regular file");
                }
            }
        }
    }
}
