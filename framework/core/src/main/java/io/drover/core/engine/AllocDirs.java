package io.drover.core.engine;

import io.drover.core.spec.SafeName;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Nomad's allocation directory layout under the data dir:
 * {@code alloc/<alloc-id>/alloc/{logs,data,tmp}} shared by the group and
 * {@code alloc/<alloc-id>/<task>/{local,secrets,tmp}} per task.
 *
 * <p>Every path derived from a name is checked to stay inside its allocation directory, whatever the parser let
 * through (defence in depth): a task name must be a {@link SafeName}, the derived path must be a direct child of
 * its directory, and a created task directory must resolve (symlinks followed) inside the allocation directory.
 * A path that fails the check is an {@link UnsafePathException}, never created.
 */
public record AllocDirs(Path root) {

    static AllocDirs of(Path dataDir, String allocId) {
        return new AllocDirs(dataDir.resolve("alloc").resolve(allocId));
    }

    /** The agent's data dir these allocation directories are in ({@code <data_dir>/alloc/<id>}). */
    Path dataDir() {
        return root.toAbsolutePath().normalize().getParent().getParent();
    }

    /**
     * {@code dir/name}, once {@code name} is checked to be one safe path component that keeps the path directly
     * inside {@code dir}.
     */
    static Path child(Path dir, String name, String what) throws UnsafePathException {
        Optional<String> problem = SafeName.problem(name);
        if (problem.isPresent()) {
            throw new UnsafePathException(what + " \"" + SafeName.shown(name) + "\" " + problem.get());
        }
        Path p;
        try {
            p = dir.resolve(name);
        } catch (InvalidPathException e) {
            throw new UnsafePathException(what + " \"" + SafeName.shown(name) + "\" is not a valid path: "
                    + e.getReason());
        }
        Path parent = p.normalize().getParent();
        if (parent == null || !parent.equals(dir.normalize())) {
            throw new UnsafePathException(what + " \"" + SafeName.shown(name) + "\" leaves " + dir);
        }
        return p;
    }

    Path shared() {
        return root.resolve("alloc");
    }

    Path logs() {
        return shared().resolve("logs");
    }

    /** The task's directory {@code <root>/<name>}: checked, never outside the allocation directory. */
    Path task(String name) throws UnsafePathException {
        if (SafeName.RESERVED_TASK_NAME.equals(name)) {
            throw new UnsafePathException("task name \"" + name + "\" " + SafeName.taskProblem(name).orElseThrow());
        }
        return child(root, name, "task name");
    }

    /** The task's first log file of a stream ({@code stdout}, {@code stderr}): {@code alloc/logs/<task>.<stream>.0}. */
    Path log(String task, String stream) throws UnsafePathException {
        task(task);
        return child(logs(), task + "." + stream + ".0", "log file of task");
    }

    /**
     * Creates the allocation directory and its shared {@code alloc/{logs,data,tmp}}: one mkdir each once
     * {@code <data_dir>/alloc} exists (each level made in order, so no mkdir fails first for a missing parent).
     */
    void createShared() throws IOException {
        Files.createDirectories(root);
        Path shared = shared();
        Files.createDirectories(shared);
        for (String d : new String[] {"logs", "data", "tmp"}) {
            Files.createDirectories(shared.resolve(d));
        }
    }

    /** Where destroyed allocation directories wait to be deleted: {@code <data_dir>/gc-trash}, same file system. */
    static Path trash(Path dataDir) {
        return dataDir.resolve(TRASH);
    }

    static final String TRASH = "gc-trash";

    /**
     * Removes the allocation directory from {@code alloc/} (GC) with one rename into {@link #trash}: O(1) whatever
     * the tree holds; the GC thread deletes the trash's contents later ({@code GarbageCollector}). When the rename
     * fails (another file system), the tree is deleted here. Idempotent: a missing tree is not an error.
     */
    void delete() throws IOException {
        if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Path dataDir = root.getParent().getParent();
        Path trash = trash(dataDir);
        try {
            Files.createDirectories(trash);
            Files.move(root, trash.resolve(root.getFileName()), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            deleteTree(root);
        }
    }

    /** Deletes a directory tree, deepest first. Blocking. */
    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths.sorted(java.util.Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    /**
     * Deletes everything in the trash (GC thread; blocking I/O). Failures are left for the next sweep.
     *
     * @return how many allocation directories were deleted
     */
    public static int sweepTrash(Path dataDir) {
        Path trash = trash(dataDir);
        if (!Files.isDirectory(trash)) {
            return 0;
        }
        int n = 0;
        try (var dirs = Files.newDirectoryStream(trash)) {
            for (Path d : dirs) {
                try {
                    deleteTree(d);
                    n++;
                } catch (IOException | java.io.UncheckedIOException e) {
                    org.slf4j.LoggerFactory.getLogger(AllocDirs.class).warn("cannot delete {}: {}", d, e.toString());
                }
            }
        } catch (IOException e) {
            org.slf4j.LoggerFactory.getLogger(AllocDirs.class).warn("cannot list {}: {}", trash, e.toString());
        }
        return n;
    }

    /**
     * Creates the task's {@code local}, {@code secrets} and {@code tmp}. Refuses (creating nothing of it outside)
     * a name that is not safe, and a task directory that resolves outside the allocation directory (a symlink
     * planted where it should be).
     */
    void createTask(String name) throws IOException {
        Path dir = task(name);
        boolean made;
        try {
            Files.createDirectory(dir);
            made = true;
        } catch (java.nio.file.FileAlreadyExistsException e) {
            made = false; // a directory, or a link or file someone put there: checked below
        } catch (java.nio.file.NoSuchFileException e) {
            Files.createDirectories(dir);
            made = false;
        }
        // A directory this mkdir made is a new entry of the allocation directory (mkdir never follows a link in
        // its last component: one planted there fails it), so it is inside by construction; anything that was
        // there already is resolved and checked.
        if (!made && (!dir.toRealPath().startsWith(root.toRealPath()) || Files.isSymbolicLink(dir))) {
            throw new UnsafePathException("task directory " + dir + " resolves outside " + root);
        }
        for (String d : new String[] {"local", "secrets", "tmp"}) {
            Files.createDirectories(dir.resolve(d));
        }
    }
}
