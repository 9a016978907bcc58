package io.drover.core.gc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * GC selection as a table. Each candidate is written {@code name:kind:time}: kind {@code T} terminal at time,
 * {@code L} live (time = create time), {@code P} live with only poststop tasks that the policy keeps,
 * {@code K} the same but killable (kill_poststop or gc_kill = true); an optional {@code :bytes} gives its
 * directory size. Victims are written {@code name/reason} with {@code +} when the destroy kills poststop tasks.
 */
class GcSelectorTest {
    private static final DiskUsage NO_DISK = DiskUsage.UNKNOWN;

    static Stream<Arguments> table() {
        return Stream.of(
                // pass, incoming, maxAllocs, candidates, disk (used/total bytes), expected victims, skipped lines
                row("under the limit: nothing", GcPass.PLACEMENT, 1, 3, "a:T:1 b:L:2", NO_DISK, ""),
                row("the seed: one terminal, one new, limit 1", GcPass.PLACEMENT, 1, 1, "a:T:1", NO_DISK,
                        "a/max allocs"),
                row("oldest terminal first, by terminal time not create time", GcPass.PLACEMENT, 1, 2,
                        "a:T:9 b:T:3 c:T:5", NO_DISK, "b/max allocs c/max allocs"),
                row("live allocations are never picked", GcPass.PLACEMENT, 1, 1, "a:L:1 b:T:5", NO_DISK,
                        "b/max allocs", 1),
                row("preserve_states: a running poststop keeps its allocation", GcPass.PLACEMENT, 1, 1, "a:P:1",
                        NO_DISK, "", 1),
                row("kill_poststop: terminal first, then poststop-only oldest first", GcPass.PLACEMENT, 2, 4,
                        "a:K:7 b:T:9 c:K:3 d:L:1", NO_DISK, "b/max allocs c/max allocs+"),
                row("kill_poststop: poststop-only are taken only while over the limit", GcPass.PLACEMENT, 1, 3,
                        "a:K:1 b:T:2 c:K:3", NO_DISK, "b/max allocs"),
                row("interval pass names itself", GcPass.INTERVAL, 0, 1, "a:T:1 b:T:2 c:L:3", NO_DISK,
                        "a/interval b/interval"),
                row("manual: every terminal one, even under the limit", GcPass.MANUAL, 0, 50, "a:T:2 b:L:1 c:T:1",
                        NO_DISK, "c/manual a/manual"),
                row("manual leaves poststop-only ones under the limit", GcPass.MANUAL, 0, 50, "a:K:1 b:T:2",
                        NO_DISK, "b/manual"),
                row("disk over 80%: oldest terminal until under", GcPass.INTERVAL, 0, 50,
                        "a:T:1:100 b:T:2:100 c:T:3:100 d:L:0", new DiskUsage(1000, 950, 0, 0),
                        "a/disk b/disk"),
                row("disk over with no terminal left", GcPass.INTERVAL, 0, 50, "a:L:1", new DiskUsage(100, 99, 0, 0),
                        "", 1),
                row("inodes over 70%", GcPass.INTERVAL, 0, 50, "a:T:1:0:20 b:T:2:0:20",
                        new DiskUsage(0, 0, 100, 85), "a/inodes"),
                row("count first, then disk counts what the count freed", GcPass.PLACEMENT, 0, 2,
                        "a:T:1:100 b:T:2:100 c:T:3:100", new DiskUsage(1000, 950, 0, 0), "a/max allocs b/disk"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void selects(String name, GcPass pass, int incoming, int maxAllocs, String candidates, DiskUsage disk,
            String expected, int skippedLines) {
        GcPlan plan = GcSelector.select(parse(candidates), new GcLimits(maxAllocs, 80, 70), disk, pass, incoming);

        List<String> got = plan.victims().stream()
                .map(v -> v.allocId() + "/" + v.reason().wireName() + (v.killsPoststop() ? "+" : "")).toList();
        assertThat(got).containsExactlyElementsOf(expected.isEmpty() ? List.of() : List.of(expected.split(" (?=[a-z]+/)")));
        assertThat(plan.skipped()).hasSize(skippedLines);
    }

    @org.junit.jupiter.api.Test
    void theSkipLineSaysWhatNomadSaysAndWhyTheAllocationIsKept() {
        GcPlan plan = GcSelector.select(parse("a:P:1"), new GcLimits(1, 80, 70), NO_DISK, GcPass.PLACEMENT, 1);

        assertThat(plan.skipped()).containsExactly("garbage collection skipped because no terminal allocations: "
                + "reason=\"number of allocations (2) is over the limit (1)\"; 1 allocation(s) kept live by "
                + "running poststop tasks that the kill policy does not kill");
    }

    private static Arguments row(String name, GcPass pass, int incoming, int max, String cands, DiskUsage disk,
            String expected) {
        return row(name, pass, incoming, max, cands, disk, expected, 0);
    }

    private static Arguments row(String name, GcPass pass, int incoming, int max, String cands, DiskUsage disk,
            String expected, int skipped) {
        return Arguments.of(name, pass, incoming, max, cands, disk, expected, skipped);
    }

    private static List<GcCandidate> parse(String spec) {
        List<GcCandidate> out = new ArrayList<>();
        for (String c : spec.split(" ")) {
            String[] f = c.split(":");
            long time = Long.parseLong(f[2]);
            long bytes = f.length > 3 ? Long.parseLong(f[3]) : 0;
            long inodes = f.length > 4 ? Long.parseLong(f[4]) : 0;
            boolean terminal = f[1].equals("T");
            boolean poststopOnly = f[1].equals("P") || f[1].equals("K");
            out.add(new GcCandidate(f[0], terminal ? 0 : time, terminal ? time : -1, poststopOnly, f[1].equals("K"),
                    bytes, inodes));
        }
        return out;
    }
}
