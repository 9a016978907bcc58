package io.drover.cli.format;

import io.drover.core.event.TaskEvent;
import io.drover.core.spec.TaskKind;
import io.drover.core.state.AllocationState;
import io.drover.core.state.TaskState;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Text of one allocation in the layout of Nomad's {@code alloc status -verbose} (see the seed): a header of
 * {@code key = value} lines, then per task (sorted by name, as Nomad does) its state, its {@code Task Events:}
 * summary and every event, newest first. Pure: the same state and zone always give the same text.
 *
 * <p>Differences from Nomad, on purpose: no resource, placement or evaluation lines (Drover has no scheduler);
 * times carry milliseconds; every event is listed (Nomad keeps the last 10).
 */
public final class AllocStatusFormatter {
    private static final String NONE = "<none>";

    private AllocStatusFormatter() {}

    /** The text of an allocation whose {@code job} is known (the labels come from it). */
    public static String format(AllocationState alloc, ZoneId zone) {
        return format(alloc, zone, Map.of(), name -> "");
    }

    /**
     * The text of an allocation; when its {@code job} is null (read back from the API's JSON), the tasks'
     * lifecycle labels come from {@code labels} (task name to label, e.g. {@code poststop}; a task missing from
     * it gets none).
     */
    public static String format(AllocationState alloc, ZoneId zone, Map<String, String> labels) {
        return format(alloc, zone, labels, name -> "");
    }

    /** @param taskExtra text appended after each task's section (e.g. the tail of its logs), by task name */
    public static String format(AllocationState alloc, ZoneId zone, Map<String, String> labels,
            java.util.function.Function<String, String> taskExtra) {
        return format(alloc, zone, labels, List.of(), taskExtra);
    }

    /**
     * @param extraHeader {@code key = value} lines after the header's own (e.g. {@link RescheduleLines}), values
     *     already escaped
     * @param taskExtra text appended after each task's section (e.g. the tail of its logs), by task name
     */
    public static String format(AllocationState alloc, ZoneId zone, Map<String, String> labels,
            List<String[]> extraHeader, java.util.function.Function<String, String> taskExtra) {
        StringBuilder sb = new StringBuilder(header(alloc, zone, extraHeader));
        Map<String, TaskState> byName = new TreeMap<>(alloc.taskStates());
        byName.forEach((name, state) -> sb.append('\n').append(task(alloc, name, state, zone, labels))
                .append(taskExtra.apply(name)));
        return sb.toString();
    }

    private static String header(AllocationState a, ZoneId zone, List<String[]> extra) {
        List<String[]> kv = new ArrayList<>();
        kv.add(new String[] {"ID", TerminalText.escape(a.id())});
        kv.add(new String[] {"Name", TerminalText.escape(a.name())});
        kv.add(new String[] {"Job ID", TerminalText.escape(a.jobId())});
        kv.add(new String[] {"Job Version", "0"});
        kv.add(new String[] {"Task Group", TerminalText.escape(a.taskGroup())});
        kv.add(new String[] {"Client Status", a.clientStatus().wireName()});
        kv.add(new String[] {"Client Description",
            TerminalText.escape(orElse(a.clientDescription(), a.clientStatus().description()))});
        kv.add(new String[] {"Desired Status", a.desiredStatus().wireName()});
        kv.add(new String[] {"Desired Description", TerminalText.escape(orElse(a.desiredDescription(), NONE))});
        kv.add(new String[] {"Created", Times.local(a.createTime(), zone)});
        kv.add(new String[] {"Modified", Times.local(a.modifyTime(), zone)});
        kv.addAll(extra);
        return Columns.keyValues(kv);
    }

    private static String task(AllocationState alloc, String name, TaskState state, ZoneId zone,
            Map<String, String> labels) {
        StringBuilder sb = new StringBuilder("Task \"").append(TerminalText.escape(name)).append('"');
        String label = alloc.job() == null ? labels.getOrDefault(name, "") : kindLabel(alloc, name);
        if (!label.isEmpty()) {
            sb.append(" (").append(TerminalText.escape(label)).append(')');
        }
        sb.append(" is \"").append(state.state().wireName()).append("\"\n\n");
        sb.append("Task Events:\n");
        sb.append(Columns.keyValues(List.of(
                new String[] {"Started At", Times.utc(state.startedAt())},
                new String[] {"Finished At", Times.utc(state.finishedAt())},
                new String[] {"Total Restarts", Integer.toString(state.restarts())},
                new String[] {"Last Restart", Times.utc(state.lastRestart())})));
        sb.append("\nRecent Events:\n");
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"Time", "Type", "Description"});
        List<TaskEvent> events = state.events();
        for (int i = events.size() - 1; i >= 0; i--) {
            TaskEvent e = events.get(i);
            rows.add(new String[] {Times.local(e.time(), zone), e.type().wireName(), description(e)});
        }
        sb.append(Columns.table(rows));
        return sb.toString();
    }

    /** The lifecycle label of a task ({@code prestart sidecar}, ...), empty for a main task or an unknown job. */
    private static String kindLabel(AllocationState alloc, String taskName) {
        if (alloc.job() == null) {
            return "";
        }
        return alloc.job().group(alloc.taskGroup())
                .flatMap(g -> g.task(taskName))
                .map(t -> t.kind().label())
                .orElse(TaskKind.MAIN.label());
    }

    /**
     * Nomad shows the display message; a line break would break the table, so it becomes a space; any other
     * control character (an event message is a task's or a driver's text) is escaped ({@link TerminalText}).
     */
    private static String description(TaskEvent e) {
        String text = e.displayMessage().isEmpty() ? e.message() : e.displayMessage();
        return TerminalText.escape(text.replaceAll("\\s*[\\r\\n]+\\s*", " "));
    }

    private static String orElse(String value, String fallback) {
        return value == null || value.isEmpty() ? fallback : value;
    }
}
