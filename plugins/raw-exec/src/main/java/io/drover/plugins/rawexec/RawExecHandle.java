package io.drover.plugins.rawexec;

import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.TaskNotFoundException;
import io.drover.process.LogRotation;
import io.drover.process.SupervisedProcess;
import java.nio.file.Path;
import java.util.Map;

/**
 * What raw_exec persists in a {@link TaskHandle}'s state to re-attach after an agent restart: the shim's pid
 * (also the task's pgid and sid), its start time ({@code /proc/<pid>/stat} field 22, against pid reuse), the
 * status file the shim writes, and the task's log files and rotation (to collect its output again). Pure.
 *
 * @param rotation null when the handle does not say (output is then not collected after a re-attach)
 */
record RawExecHandle(int pid, long startTime, Path statusFile, Path stdout, Path stderr, LogRotation rotation) {
    static final String PID = "pid";
    static final String START_TIME = "start_time";
    static final String PGID = "pgid";
    static final String SID = "sid";
    static final String STATUS_FILE = "status_file";
    static final String STDOUT = "stdout";
    static final String STDERR = "stderr";
    static final String LOG_MAX_FILES = "log_max_files";
    static final String LOG_MAX_FILE_SIZE = "log_max_file_size";

    /** The state of a task just started under the shim. */
    static Map<String, String> of(SupervisedProcess process, TaskConfig task) {
        String pid = Integer.toString(process.pid());
        return Map.of(PID, pid, START_TIME, Long.toString(process.startTime()), PGID, pid, SID, pid,
                STATUS_FILE, process.statusFile().orElseThrow().toString(), STDOUT, task.stdoutPath().toString(),
                STDERR, task.stderrPath().toString(), LOG_MAX_FILES, Integer.toString(task.logMaxFiles()),
                LOG_MAX_FILE_SIZE, Long.toString(task.logMaxFileSize()));
    }

    /**
     * @throws TaskNotFoundException when the pid, start time or status file is missing or malformed (a handle of
     *     a task started without the shim): its end cannot be known
     */
    static RawExecHandle parse(TaskHandle handle) throws TaskNotFoundException {
        Map<String, String> state = handle.state();
        try {
            int pid = Integer.parseInt(state.getOrDefault(PID, ""));
            long startTime = Long.parseLong(state.getOrDefault(START_TIME, ""));
            String status = state.getOrDefault(STATUS_FILE, "");
            if (status.isEmpty() || startTime < 0 || pid <= 0) {
                throw new IllegalArgumentException();
            }
            return new RawExecHandle(pid, startTime, Path.of(status), path(state, STDOUT), path(state, STDERR),
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
