package io.drover.core.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Nomad's allocation directory layout under the data dir:
 * {@code alloc/<alloc-id>/alloc/{logs,data,tmp}} shared by the group and
 * {@code alloc/<alloc-id>/<task>/{local,secrets,tmp}} per task.
 */
record AllocDirs(Path root) {

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

    /** Removes the allocation's whole directory tree (GC). Idempotent: a missing tree is not an error. */
    void delete() throws IOException {
        if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            for (Path p : (Iterable<Path>) paths.sorted(java.util.Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    void createTask(String name) throws IOException {
        for (String d : new String[] {"local", "secrets", "tmp"}) {
            Files.createDirectories(task(name).resolve(d));
        }
    }
}
