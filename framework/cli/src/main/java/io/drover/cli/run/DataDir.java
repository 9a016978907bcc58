package io.drover.cli.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * {@code drover run}'s data directory: the config's {@code data_dir} (created if missing, kept), or a temporary
 * directory that {@link #close()} deletes with everything in it.
 */
final class DataDir implements AutoCloseable {
    private final Path path;
    private final boolean temporary;

    private DataDir(Path path, boolean temporary) {
        this.path = path;
        this.temporary = temporary;
    }

    /** @param configured the config's data_dir, null for a temporary one */
    static DataDir open(Path configured) throws IOException {
        if (configured != null) {
            return new DataDir(Files.createDirectories(configured), false);
        }
        return new DataDir(Files.createTempDirectory("drover-run-"), true);
    }

    Path path() {
        return path;
    }

    /** Deletes a temporary directory (best effort: a file a task still holds open may stay). Idempotent. */
    @Override
    public void close() {
        if (!temporary || !Files.exists(path)) {
            return;
        }
        try {
            Files.walkFileTree(path, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete temporary data dir " + path, e);
        }
    }
}
