package io.drover.nomad.task;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which tasks exceeded their max_runtime, so that Nomad's next StartTask of the same task of the same allocation
 * is refused (FATAL) rather than restarted. Kept in memory and in a marker file in the task's directory
 * ({@value #FILE}), so a restarted plugin still refuses. The file is opened without following links and only in a
 * task directory that is itself no link. Thread-safe; the file writes block briefly (a create in the task dir).
 */
final class ExceededMarks {
    static final String FILE = ".drover-max-runtime-exceeded";
    private final ConcurrentHashMap<String, String> marks = new ConcurrentHashMap<>();

    private static String key(String allocId, String taskName) {
        return allocId + "/" + taskName;
    }

    void mark(String allocId, String taskName, Path taskDir, String message) {
        marks.put(key(allocId, taskName), message);
        if (!Files.isDirectory(taskDir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (SeekableByteChannel ch = Files.newByteChannel(taskDir.resolve(FILE), Set.of(StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS))) {
            ch.write(ByteBuffer.wrap(message.getBytes(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            // the in-memory mark still refuses while this plugin runs
        }
    }

    /** The message of an earlier run that exceeded, if any. */
    Optional<String> find(String allocId, String taskName, Path taskDir) {
        String m = marks.get(key(allocId, taskName));
        if (m != null) {
            return Optional.of(m);
        }
        Path file = taskDir.resolve(FILE);
        if (Files.isDirectory(taskDir, LinkOption.NOFOLLOW_LINKS)
                && Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            try {
                byte[] b = Files.readAllBytes(file);
                return Optional.of(new String(b, 0, Math.min(b.length, 512), StandardCharsets.UTF_8));
            } catch (IOException e) {
                return Optional.of("Max Runtime Exceeded");
            }
        }
        return Optional.empty();
    }
}
