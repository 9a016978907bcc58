package io.drover.agent;

import io.drover.core.engine.Engine;
import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.spec.Job;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskGroup;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.TaskLifeState;
import io.drover.core.state.TaskState;
import io.drover.process.ProcessLeakCheck;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What a job of {@link NomadCorpusRunCheck} came to, and the leak check's marker in its tasks. Test thread only. */
final class CorpusVerdict {
    private CorpusVerdict() {}

    /**
     * "runs" (every allocation running, a task of each running), "completes" (every allocation complete), a failure
     * with its category; null while undecided (unless {@code atDeadline}).
     */
    static String of(Engine engine, Job job, List<String> allocs, boolean atDeadline) {
        boolean toCompletion = job.type().runsToCompletion();
        boolean allDone = true;
        boolean allRunning = true;
        for (String id : allocs) {
            AllocationState a = engine.allocation(id).orElseThrow();
            if (a.clientStatus() == ClientStatus.FAILED) {
                return "fails: " + category(a);
            }
            allDone &= a.clientStatus() == ClientStatus.COMPLETE;
            allRunning &= a.clientStatus() == ClientStatus.RUNNING && a.taskStates().values().stream()
                    .anyMatch(t -> t.state() == TaskLifeState.RUNNING);
            if (!toCompletion && a.clientStatus() == ClientStatus.COMPLETE) {
                return "fails: a service's allocation ended (" + category(a) + ")";
            }
        }
        if (toCompletion && allDone) {
            return "completes";
        }
        if (!toCompletion && allRunning && atDeadline) {
            return "runs";
        }
        if (atDeadline && !allRunning) {
            // a task still being restarted at the deadline: its events say why it does not run (an artifact
            // the node cannot reach, a binary it does not have), which the per-category count should show
            for (String id : allocs) {
                AllocationState a = engine.allocation(id).orElseThrow();
                String why = category(a);
                if (!why.startsWith("failed (")) {
                    return "fails: " + why + ", restarting at the deadline";
                }
            }
        }
        if (atDeadline) {
            return toCompletion ? (allRunning ? "still running at the deadline (batch)" : "fails: did not start in time")
                    : "fails: not running at the deadline";
        }
        return null;
    }

    /** For a failure, the first failing event's message in full (the report's per-file line); else empty. */
    static String detail(Engine engine, java.nio.file.Path dataDir, List<String> allocs, String verdict) {
        if (!verdict.startsWith("fails") && !verdict.startsWith("still")) {
            return "";
        }
        for (String id : allocs) {
            AllocationState a = engine.allocation(id).orElseThrow();
            for (Map.Entry<String, TaskState> t : a.taskStates().entrySet()) {
                for (TaskEvent e : t.getValue().events()) {
                    if (e.type() == TaskEventType.DRIVER_FAILURE || e.type() == TaskEventType.SETUP_FAILURE
                            || e.type() == TaskEventType.ARTIFACT_DOWNLOAD_FAILED
                            || (e.type() == TaskEventType.TERMINATED && e.exitCode() != 0)) {
                        // a death by a signal: the task's events say whether the agent sent it (Killing) or not
                        String events = e.type() == TaskEventType.TERMINATED && e.exitCode() > 128
                                ? " events: " + t.getValue().events().stream().map(x -> x.type().wireName()).toList()
                                : "";
                        return " [" + t.getKey() + ": " + e.type().wireName() + ": "
                                + (e.displayMessage() + " " + e.driverError() + " " + e.setupError()).strip() + "]"
                                + events
                                + lastLine(dataDir.resolve("alloc").resolve(id).resolve("alloc").resolve("logs")
                                        .resolve(t.getKey() + ".stderr.0"));
                    }
                }
            }
        }
        return "";
    }

    /**
     * The allocation a static port clash names in a failure's {@link #detail} ("... is already used by allocation
     * ID"), or null when the failure is not such a clash.
     */
    static String portTakenBy(String detail) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("is already used by allocation ([0-9a-f-]{36})")
                .matcher(detail);
        return m.find() ? m.group(1) : null;
    }

    /** The last line a task wrote on stderr, for the report (read by the test, not by the agent). */
    private static String lastLine(java.nio.file.Path log) {
        try {
            List<String> l = java.nio.file.Files.readAllLines(log).stream().filter(x -> !x.isBlank()).toList();
            return l.isEmpty() ? "" : " stderr: " + String.join(" | ", l.subList(Math.max(0, l.size() - 6), l.size()));
        } catch (java.nio.file.NoSuchFileException e) {
            return " (no stderr: the task never ran)"; // the check's agent collects nothing
        } catch (java.io.IOException | java.io.UncheckedIOException e) {
            return " (stderr unreadable: " + e.getMessage() + ")";
        }
    }

    /** Why an allocation failed, with names and numbers taken out. */
    static String category(AllocationState a) {
        for (TaskState t : a.taskStates().values()) {
            for (TaskEvent e : t.events()) {
                String m = (e.displayMessage() + " " + e.driverError() + " " + e.setupError()).toLowerCase();
                if (e.type() == TaskEventType.ARTIFACT_DOWNLOAD_FAILED) {
                    return "needs the network (artifact download)";
                }
                if (e.type() == TaskEventType.DRIVER_FAILURE || e.type() == TaskEventType.SETUP_FAILURE) {
                    if (m.contains("no such file") || m.contains("not found") || m.contains("executable")) {
                        return "a binary missing on this host";
                    }
                    if (m.contains("port")) {
                        String shown = e.displayMessage().replaceAll("[0-9]+", "N");
                        return shown.startsWith("network: ") ? shown : "network: " + shown;
                    }
                    return e.type().wireName() + ": " + e.displayMessage().replaceAll("\"[^\"]*\"", "\"*\"");
                }
            }
        }
        for (TaskState t : a.taskStates().values()) {
            for (TaskEvent e : t.events()) {
                if (e.type() == TaskEventType.TERMINATED && e.exitCode() != 0) {
                    return e.exitCode() == 127 ? "a binary missing on this host (exit 127)"
                            : "a task exited " + e.exitCode();
                }
            }
        }
        return "failed (" + a.taskStates().keySet() + ")";
    }

    /** The job with the leak check's marker in every task's env, so that no corpus process can escape it. */
    static Job marked(Job job) throws ReflectiveOperationException {
        List<TaskGroup> groups = new ArrayList<>();
        for (TaskGroup g : job.groups()) {
            List<Task> tasks = new ArrayList<>();
            for (Task t : g.tasks()) {
                Map<String, String> env = new LinkedHashMap<>(t.env());
                env.put(ProcessLeakCheck.MARKER_VAR, ProcessLeakCheck.env().get(ProcessLeakCheck.MARKER_VAR));
                tasks.add(with(t, "env", env));
            }
            groups.add(with(g, "tasks", tasks));
        }
        return with(job, "groups", groups);
    }

    /** A copy of a record with one component replaced (the spec records grow; this stays as they do). */
    @SuppressWarnings("unchecked")
    private static <R extends Record> R with(R r, String component, Object value) throws ReflectiveOperationException {
        RecordComponent[] cs = r.getClass().getRecordComponents();
        Object[] args = new Object[cs.length];
        Class<?>[] types = new Class<?>[cs.length];
        for (int i = 0; i < cs.length; i++) {
            types[i] = cs[i].getType();
            args[i] = cs[i].getName().equals(component) ? value : cs[i].getAccessor().invoke(r);
        }
        return (R) r.getClass().getDeclaredConstructor(types).newInstance(args);
    }
}
