package io.drover.cli.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.drover.core.state.AllocationState;
import java.util.List;

/**
 * Allocations as JSON in Nomad's API shape (the records carry Nomad's field names): instants as RFC 3339
 * strings, unset instants as {@code null}, event times as unix nanoseconds, pretty-printed.
 */
public final class AllocJson {
    private AllocJson() {}

    public static ObjectMapper mapper() {
        return new ObjectMapper()
                .registerModule(new JavaTimeModule())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .enable(SerializationFeature.INDENT_OUTPUT);
    }

    /**
     * {@link #format(List)} with Nomad's reschedule fields on each allocation, as the agent's API writes them:
     * {@code PreviousAllocation}, {@code NextAllocation} ("" when none) and {@code RescheduleTracker} (null when
     * the allocation is no replacement; its events' times and delays in nanoseconds).
     *
     * @param lineage an allocation's lineage by id (null: none)
     */
    public static String format(List<AllocationState> allocs,
            java.util.function.Function<String, io.drover.core.reschedule.Rescheduler.Lineage> lineage) {
        ObjectMapper m = mapper();
        com.fasterxml.jackson.databind.node.ArrayNode out = m.createArrayNode();
        for (AllocationState a : allocs) {
            com.fasterxml.jackson.databind.node.ObjectNode o = m.valueToTree(a);
            var l = lineage.apply(a.id());
            o.put("PreviousAllocation", l == null || l.previous() == null ? "" : l.previous());
            o.put("NextAllocation", l == null || l.next() == null ? "" : l.next());
            if (l == null || l.events().isEmpty()) {
                o.putNull("RescheduleTracker");
            } else {
                var events = o.putObject("RescheduleTracker").putArray("Events");
                l.events().forEach(e -> events.addObject().put("RescheduleTime", e.rescheduleTime())
                        .put("PrevAllocID", e.prevAllocId()).put("PrevNodeID", e.prevNodeId())
                        .put("Delay", e.delay().toNanos()));
            }
            out.add(o);
        }
        try {
            return m.writeValueAsString(out) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise allocations: " + e.getOriginalMessage(), e);
        }
    }

    /** A JSON array of the allocations, in the given order, ending with a newline. */
    public static String format(List<AllocationState> allocs) {
        try {
            return mapper().writeValueAsString(allocs) + "\n";
        } catch (JsonProcessingException e) {
            // Records of strings, numbers, enums and instants always serialise; this is a programming error.
            throw new IllegalStateException("cannot serialise allocations: " + e.getOriginalMessage(), e);
        }
    }
}
