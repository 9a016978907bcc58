package io.drover.cli.format;

import io.drover.core.reschedule.Rescheduler;
import io.drover.core.spec.ReschedulePolicy;
import io.drover.core.state.AllocationState;
import java.util.ArrayList;
import java.util.List;

/**
 * The reschedule lines of an allocation's status header, as Nomad's {@code alloc status} prints them:
 * {@code Previous Allocation} (a replacement), {@code Reschedule Attempts = n/total} (a replacement whose policy
 * limits its attempts; {@code n} when unlimited) and {@code Replacement Alloc ID} (a failed one that was
 * replaced). Pure; none for an allocation without a lineage.
 */
public final class RescheduleLines {
    private RescheduleLines() {}

    /** @param lineage the allocation's lineage; null: none */
    public static List<String[]> of(AllocationState a, Rescheduler.Lineage lineage) {
        List<String[]> kv = new ArrayList<>();
        if (lineage == null) {
            return kv;
        }
        if (lineage.previous() != null) {
            kv.add(new String[] {"Previous Allocation", TerminalText.escape(lineage.previous())});
        }
        if (!lineage.events().isEmpty()) {
            int n = lineage.events().size();
            ReschedulePolicy p = a.job() == null ? null : ReschedulePolicy.of(a.job(), a.group());
            kv.add(new String[] {"Reschedule Attempts",
                p == null || p.unlimited() ? Integer.toString(n) : n + "/" + p.attempts()});
        }
        if (lineage.next() != null) {
            kv.add(new String[] {"Replacement Alloc ID", TerminalText.escape(lineage.next())});
        }
        return kv;
    }
}
