package io.drover.core.artifact;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * File operations below a root — a task's directory or the allocation's shared {@code alloc/} directory, as
 * {@link ClientPath} resolves it — that never follow a link a task could have planted: the root itself and every
 * directory on the way are created or checked one component at a time without following links, and a path that is
 * not inside the root after normalisation is refused. Blocking I/O (pool threads only). Used by artifacts and
 * templates.
 */
public final class SafeFiles {
    private SafeFiles() {}

    /** {@code root/relative}, normalised, refused when it leaves {@code root}. */
    public static Path inside(Path root, String relative, String what) throws ArtifactException {
        Path p;
        try {
            p = root.resolve(relative).normalize();
        } catch (java.nio.file.InvalidPathException e) {
            throw new ArtifactException(what + " \"" + relative + "\" is not a valid path");
        }
        if (!p.startsWith(root.normalize()) || relative.startsWith("/")) {
            throw new ArtifactException(what + " \"" + relative + "\" leaves " + root.getFileName());
        }
        return p;
    }

    /** Creates {@code dir} (inside {@code root}) and its parents; refuses a link or a file on the way. */
    public static void mkdirs(Path root, Path dir) throws IOException, ArtifactException {
        Path rel = root.normalize().relativize(dir.normalize());
        Path at = root.normalize();
        checkDir(at, root);
        for (Path part : rel) {
            if (part.toString().isEmpty()) {
                continue;
            }
            at = at.resolve(part);
            try {
                Files.createDirectory(at);
            } catch (FileAlreadyExistsException e) {
                checkDir(at, root);
            }
        }
    }

    private static void checkDir(Path at, Path root) throws ArtifactException {
        if (Files.isSymbolicLink(at)) {
            throw new ArtifactException(shown(root, at) + " is a symbolic link; refusing to follow it");
        }
        if (!Files.isDirectory(at, LinkOption.NOFOLLOW_LINKS)) {
            throw new ArtifactException(shown(root, at) + " is not a directory");
        }
    }

    /**
     * Checks that {@code p} (inside {@code root}) can be read without following a link: {@code root} and every
     * directory below it on the way are directories, not links, and {@code p} itself is not a link. Open it
     * with {@link LinkOption#NOFOLLOW_LINKS} after this. Blocking (a stat per component).
     */
    public static void checkReadable(Path root, Path p) throws ArtifactException {
        Path rel = root.normalize().relativize(p.normalize());
        Path at = root.normalize();
        checkDir(at, root);
        for (Path part : rel) {
            if (part.toString().isEmpty()) {
                continue;
            }
            at = at.resolve(part);
            if (Files.isSymbolicLink(at)) {
                throw new ArtifactException(shown(root, at) + " is a symbolic link; refusing to follow it");
            }
            if (!at.equals(p.normalize()) && Files.exists(at, LinkOption.NOFOLLOW_LINKS)
                    && !Files.isDirectory(at, LinkOption.NOFOLLOW_LINKS)) {
                throw new ArtifactException(shown(root, at) + " is not a directory");
            }
        }
    }

    /** Removes what is at {@code p} when it is a file or a link (never what a link points to); a dir is refused. */
    public static void clearFile(Path root, Path p) throws IOException, ArtifactException {
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            throw new ArtifactException(shown(root, p) + " is a directory");
        }
        Files.deleteIfExists(p); // a link itself is deleted, not its target
    }

    static String shown(Path root, Path p) {
        Path base = root.normalize().getParent() == null ? root.normalize() : root.normalize().getParent();
        return p.normalize().startsWith(base) ? base.relativize(p.normalize()).toString() : p.toString();
    }
}
