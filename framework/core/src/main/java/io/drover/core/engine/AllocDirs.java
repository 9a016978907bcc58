package io.drover.core.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Nomad's allocation directory layout under the data dir:
 * {@code alloc/<alloc-id>/alloc/{logs,data,tmp}} shared by the group and
 * {@code alloc/<alloc-id>/<task>/{local,secrets,tmp}} per task.
 */
public record AllocDirs(Path root) {

    static AllocDirs of(Path dataDir, String allocId) {
        return new AllocDirs(dataDir.resolve("alloc").resolve(allocId));
    }

    Path shared() {
        return root.resolve("alloc");
    }

    Path logs() {
        return shared().resolve("logs");
    }

    Path task(String name) {
        return root.resolve(name);
    }

    void createShared() throws IOException {
        for (String d : new String[] {"logs", "data", "tmp"}) {
            Files.createDirectories(shared().resolve(d));
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

    void createTask(String name) throws IOException {
        for (String d : new String[] {"local", "secrets", "tmp"}) {
            Files.createDirectories(task(name).resolve(d));
        }
    }
}
