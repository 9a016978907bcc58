package io.drover.core.engine;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.spec.TaskKind;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.slf4j.Logger;

/**
 * Writes {@code alloc/results.json} before poststop tasks start, so they learn what happened before them
 * (as systemd's ExecStopPost= does): each non-poststop task's State, Failed, and the exit code and signal of
 * its last run (null when it never ran). Uses the streaming generator, not databind: it is on the path of
 * every allocation and of {@code drover run}'s start-up time. A link planted at the file's name is not followed
 * (nothing is written, a warning is logged).
 */
final class AllocResults {
    private static final JsonFactory JSON = new JsonFactory();

    private AllocResults() {}

    static void write(AllocDirs dirs, Iterable<TaskRunner> runners, Logger log) {
        Path file = dirs.shared().resolve("results.json");
        try {
            OutputStream opened;
            try {
                opened = open(file);
            } catch (java.nio.file.NoSuchFileException e) {
                // the shared directory is made when the allocation starts; made again if it went missing
                Files.createDirectories(dirs.shared());
                opened = open(file);
            }
            try (OutputStream out = opened;
                    JsonGenerator g = JSON.createGenerator(out).useDefaultPrettyPrinter()) {
                g.writeStartObject();
                g.writeObjectFieldStart("Tasks");
                for (TaskRunner r : runners) {
                    if (r.kind() == TaskKind.POSTSTOP) {
                        continue;
                    }
                    g.writeObjectFieldStart(r.name());
                    g.writeStringField("State", r.state().state().wireName());
                    g.writeBooleanField("Failed", r.state().failed());
                    TaskEvent last = lastTerminated(r.state().events());
                    if (last == null) {
                        g.writeNullField("ExitCode");
                        g.writeNullField("Signal");
                    } else {
                        g.writeNumberField("ExitCode", last.exitCode());
                        g.writeNumberField("Signal", last.signal());
                    }
                    g.writeEndObject();
                }
                g.writeEndObject();
                g.writeEndObject();
            }
        } catch (IOException e) {
            log.warn("could not write {}: {}", file, e.getMessage());
            try {
                Files.deleteIfExists(file); // no half-written file for a poststop task to misread
            } catch (IOException ignored) {
                // a read-only disk: nothing was written either
            }
        }
    }

    /**
     * Opens the file for writing without following a link in its name (O_NOFOLLOW): the allocation's tasks can
     * write in {@code alloc/} and may have planted {@code results.json} as a link to a file of the agent's.
     */
    private static OutputStream open(Path file) throws IOException {
        return Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
    }

    private static TaskEvent lastTerminated(List<TaskEvent> events) {
        for (int i = events.size() - 1; i >= 0; i--) {
            if (events.get(i).type() == TaskEventType.TERMINATED) {
                return events.get(i);
            }
        }
        return null;
    }
}
