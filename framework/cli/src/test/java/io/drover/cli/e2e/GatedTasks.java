package io.drover.cli.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * raw_exec tasks that a test controls from outside any agent, through files in a marks directory: each run of
 * task {@code name} appends a line to {@code name.starts} (so a re-run is visible), writes its pid to
 * {@code name.pid}, prints {@code name waiting}, waits until {@code name.release} exists, prints
 * {@code name released} and exits with its code. A task whose release file exists before it starts ends at once.
 */
final class GatedTasks {
    private final Path marks;
    private final Path script;

    GatedTasks(Path dir) throws IOException {
        marks = Files.createDirectories(dir.resolve("marks"));
        script = Files.writeString(marks.resolve("gated.sh"), """
                m="$1"
                echo start >> "$m.starts"
                echo "$$" > "$m.pid"
                echo "$(basename "$m") waiting"
                while [ ! -e "$m.release" ]; do sleep 0.02; done
                echo "$(basename "$m") released"
                exit "$2"
                """);
    }

    /** The HCL of a raw_exec task block running the gated script as {@code mark}, ending with {@code code}. */
    String task(String taskName, String mark, int code, String lifecycle) {
        return """
                    task "%s" {
                      driver = "raw_exec"
                      %s
                      config {
                        command = "/bin/sh"
                        args    = ["%s", "%s", "%d"]
                      }
                    }
                """.formatted(taskName, lifecycle, script, marks.resolve(mark), code);
    }

    /**
     * A batch job of one group (no restarts, no reschedule) holding {@code tasks}. Without the reschedule block
     * Nomad's batch default would place a replacement 5 s after a failure, which runs the task again: a test that
     * counts a task's starts would then pass only when it is faster than 5 s.
     */
    Path job(Path dir, String id, String... tasks) throws IOException {
        return Files.writeString(dir.resolve(id + ".hcl"), """
                job "%s" {
                  type = "batch"
                  group "g" {
                    restart {
                      attempts = 0
                      mode     = "fail"
                    }
                    reschedule {
                      attempts  = 0
                      unlimited = false
                    }
                %s
                  }
                }
                """.formatted(id, String.join("\n", tasks)));
    }

    void release(String mark) throws IOException {
        Files.writeString(marks.resolve(mark + ".release"), "");
    }

    /** How many times the task was started (lines of its starts file). */
    long starts(String mark) throws IOException {
        Path f = marks.resolve(mark + ".starts");
        return Files.exists(f) ? Files.readAllLines(f).size() : 0;
    }

    /** The task's pid, once it has written it. */
    Optional<Integer> pid(String mark) throws IOException {
        Path f = marks.resolve(mark + ".pid");
        if (!Files.exists(f)) {
            return Optional.empty();
        }
        String s = Files.readString(f).strip();
        return s.isEmpty() ? Optional.empty() : Optional.of(Integer.parseInt(s));
    }
}
