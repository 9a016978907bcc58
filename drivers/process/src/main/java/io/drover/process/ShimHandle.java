package io.drover.process;

import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.TaskNotFoundException;
import java.nio.file.Path;
import java.util.Map;

/**
 * What a supervised task's {@link TaskHandle} state carries so that a restarted agent can re-attach to it: the
 * shim's pid (also the task's pgid and sid), its start time ({@code /proc/<pid>/stat} field 22, against pid
 * reuse), the status file the shim writes, and the task's log files and rotation (to collect its output again;
 * rotation continues from the files on disk, so no log positions are needed). Pure.
 *
 * @param rotation null when the handle does not say (output is then not collected after a re-attach)
 */
record ShimHandle(int pid, long startTime, Path statusFile, Path stdout, Path stderr, LogRotation rotation) {
    static final String PID = "pid";
    static final String START_TIME = "start_time";
    static final String PGID = "pgid";
    static final String SID = "sid";
    static final String STATUS_FILE = "status_file";
    static final String STDOUT = "stdout";
    static final String STDERR = "stderr";
    static final String LOG_MAX_FILES = "log_max_files";
    static final String LOG_MAX_FILE_SIZE = "log_max_file_size";
    /** The run's cgroup directories ({@link SpawnSpec#cgroups()}), one per line; absent when none. */
    static final String CGROUPS = "cgroups";

    /** The state of a task just started from {@code spec} (which has a status file, i.e. runs under the shim). */
    static Map<String, String> of(SupervisedProcess process, SpawnSpec spec) {
        String pid = Integer.toString(process.pid());
        Map<String, String> m = new java.util.HashMap<>();
        m.put(PID, pid);
        m.put(START_TIME, Long.toString(process.startTime()));
        m.put(PGID, pid);
        m.put(SID, pid);
        m.put(STATUS_FILE, process.statusFile().orElseThrow().toString());
        m.put(STDOUT, spec.stdout().toString());
        m.put(STDERR, spec.stderr().toString());
        if (!spec.cgroups().isEmpty()) {
            m.put(CGROUPS, String.join("\n", spec.cgroups().stream().map(Path::toString).toList()));
        }
        if (spec.rotation() != null) {
            m.put(LOG_MAX_FILES, Integer.toString(spec.rotation().maxFiles()));
            m.put(LOG_MAX_FILE_SIZE, Long.toString(spec.rotation().maxFileSize()));
        }
        return Map.copyOf(m);
    }

    /**
     * @throws TaskNotFoundException when the pid, start time or status file is missing or malformed (a handle of
     *     a task started without the shim): its end cannot be known
     */
    static ShimHandle parse(TaskHandle handle) throws TaskNotFoundException {
        Map<String, String> state = handle.state();
        try {
            int pid = Integer.parseInt(state.getOrDefault(PID, ""));
            long startTime = Long.parseLong(state.getOrDefault(START_TIME, ""));
            String status = state.getOrDefault(STATUS_FILE, "");
            if (status.isEmpty() || startTime < 0 || pid <= 0) {
                throw new IllegalArgumentException();
            }
            return new ShimHandle(pid, startTime, Path.of(status), path(state, STDOUT), path(state, STDERR),
                    rotation(state));
        } catch (IllegalArgumentException e) { // NumberFormatException, InvalidPathException
            throw new TaskNotFoundException(handle.taskId(), "its handle lacks the pid, start time or status file "
                    + "(started by an agent without re-attach support?)");
        }
    }

    private static Path path(Map<String, String> state, String key) {
        String p = state.get(key);
        return p == null ? null : Path.of(p);
    }

    private static LogRotation rotation(Map<String, String> state) {
        if (state.get(STDOUT) == null || state.get(STDERR) == null) {
            return null;
        }
        try {
            return new LogRotation(Integer.parseInt(state.get(LOG_MAX_FILES)),
                    Long.parseLong(state.get(LOG_MAX_FILE_SIZE)), LogRotation.DEFAULT_BUFFER);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
