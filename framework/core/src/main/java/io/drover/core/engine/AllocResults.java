package io.drover.core.engine;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;

/**
 * Writes {@code alloc/results.json} before poststop tasks start, so they learn what happened before them
 * (as systemd's ExecStopPost= does): each task's State, Failed, and the exit code and signal of its last run.
 */
final class AllocResults {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private AllocResults() {}

    static void write(AllocDirs dirs, Iterable<TaskRunner> runners, Logger log) {
        Map<String, Object> tasks = new LinkedHashMap<>();
        for (TaskRunner r : runners) {
            if (r.kind() == io.drover.core.spec.TaskKind.POSTSTOP) {
                continue;
            }
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("State", r.state().state().wireName());
            t.put("Failed", r.state().failed());
            var events = r.state().events();
            Integer exitCode = null;
            Integer signal = null;
            for (int i = events.size() - 1; i >= 0; i--) {
                if (events.get(i).type() == io.drover.core.event.TaskEventType.TERMINATED) {
                    exitCode = events.get(i).exitCode();
                    signal = events.get(i).signal();
                    break;
                }
            }
            t.put("ExitCode", exitCode);
            t.put("Signal", signal);
            tasks.put(r.name(), t);
        }
        try {
            Files.createDirectories(dirs.shared());
            JSON.writeValue(dirs.shared().resolve("results.json").toFile(), Map.of("Tasks", tasks));
        } catch (IOException e) {
            log.warn("could not write {}: {}", dirs.shared().resolve("results.json"), e.toString());
        }
    }
}
