package io.drover.plugins.mock;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Appends a mock task's output to its log file, creating missing parent directories. A failed write is
 * swallowed and turns the writer off: a mock's log is best effort. Callers serialise calls (the owning task's
 * lock).
 */
final class OutputWriter {
    private final Path path;
    private boolean broken;

    /** @param path the log file, or null to write nothing */
    OutputWriter(Path path) {
        this.path = path;
    }

    void append(String text) {
        if (path == null || broken || text.isEmpty()) {
            return;
        }
        try {
            Path parent = path.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            // never through a link another task of the group planted in the shared log folder
            Files.writeString(path, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.WRITE, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | RuntimeException e) {
            broken = true;
        }
    }
}
