package io.drover.cli.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.DesiredStatus;
import io.drover.core.state.TaskLifeState;
import io.drover.core.state.TaskState;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LiveStatusTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    @Test
    void withoutATerminalPrintsALineOnlyWhenAStatusOrATaskStateChanges() {
        LiveStatus live = new LiveStatus(err, false, false, 0);

        live.onUpdate(alloc(ClientStatus.PENDING, TaskLifeState.PENDING, TaskLifeState.PENDING));
        live.onUpdate(alloc(ClientStatus.PENDING, TaskLifeState.PENDING, TaskLifeState.PENDING));
        live.onUpdate(alloc(ClientStatus.RUNNING, TaskLifeState.RUNNING, TaskLifeState.PENDING));
        live.onUpdate(alloc(ClientStatus.RUNNING, TaskLifeState.RUNNING, TaskLifeState.PENDING));
        live.onUpdate(alloc(ClientStatus.COMPLETE, TaskLifeState.DEAD, TaskLifeState.DEAD));
        live.close();

        assertThat(bytes.toString(StandardCharsets.UTF_8).lines().toList()).containsExactly(
                "example.g[0] 3c584bf6  pending  web:pending cleanup:pending",
                "example.g[0] 3c584bf6  running  web:running cleanup:pending",
                "example.g[0] 3c584bf6  complete  web:dead cleanup:dead");
    }

    @Test
    void onATerminalRedrawsTheBlockInPlaceAndEndsWithTheLastState() {
        LiveStatus live = new LiveStatus(err, true, false, 0);

        live.onUpdate(alloc(ClientStatus.RUNNING, TaskLifeState.RUNNING, TaskLifeState.PENDING));
        live.close();

        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(out).contains("\u001b[2K").endsWith("web:running cleanup:pending\n");
    }

    @Test
    void updatesAfterCloseAreIgnored() {
        LiveStatus live = new LiveStatus(err, false, false, 0);
        live.close();

        live.onUpdate(alloc(ClientStatus.RUNNING, TaskLifeState.RUNNING, TaskLifeState.PENDING));
        live.close();

        assertThat(bytes.size()).isZero();
    }

    @Test
    void redrawMovesUpOverThePreviousBlockAndCutsLongLines() {
        assertThat(TerminalLines.redraw(0, List.of("abc"), 0)).isEqualTo("\r\u001b[2Kabc\n");
        assertThat(TerminalLines.redraw(2, List.of("abcdef", "x"), 4))
                .isEqualTo("\u001b[2A\r\u001b[2Kabc\n\r\u001b[2Kx\n");
    }

    /** Finding 11: one group of 2,000 tasks, 6,000 changes (old code: 6,000 lines of 22 KB each, 130 MB). */
    @Test
    void aHugeGroupsOutputIsBoundedWhateverTheNumberOfChanges() {
        for (boolean terminal : new boolean[] {false, true}) {
            bytes.reset();
            long started = System.nanoTime();
            LiveStatus live = new LiveStatus(err, terminal, false, 0);
            int tasks = 2_000;
            Map<String, TaskState> states = new LinkedHashMap<>();
            for (int i = 0; i < tasks; i++) {
                states.put("t" + i, state(TaskLifeState.PENDING));
            }
            live.onUpdate(big(ClientStatus.PENDING, states));
            for (TaskLifeState next : new TaskLifeState[] {TaskLifeState.RUNNING, TaskLifeState.DEAD}) {
                for (int i = 0; i < tasks; i++) {
                    states.put("t" + i, state(next));
                    live.onUpdate(big(next == TaskLifeState.DEAD && i == tasks - 1 ? ClientStatus.COMPLETE
                            : ClientStatus.RUNNING, states));
                }
            }
            live.close();
            double seconds = (System.nanoTime() - started) / 1e9;

            String out = bytes.toString(StandardCharsets.UTF_8);
            List<String> lines = out.lines().filter(l -> !l.isEmpty() && !l.matches("\u001b\\[\\d+A")).toList();
            long draws = (long) Math.ceil(seconds * LiveStatus.MAX_DRAWS_PER_SECOND) + 1;
            assertThat(lines.size()).as("lines, terminal=%s, %.1fs", terminal, seconds)
                    .isLessThanOrEqualTo((int) (draws + 4));
            assertThat(out.length()).as("bytes").isLessThanOrEqualTo((int) (draws + 4) * 230);
            assertThat(lines).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(220));
            if (!terminal) { // a terminal shows the current state only: a redraw replaces the one before
                assertThat(lines.get(0)).as("no client status is skipped").contains("pending  2000 tasks: 2000 pending");
            }
            assertThat(lines.get(lines.size() - 1)).endsWith("complete  2000 tasks: 2000 dead");
        }
    }

    @Test
    void onATerminalManyAllocationsAreCutToABlockWhoseLastLineCountsTheRest() {
        LiveStatus live = new LiveStatus(err, true, false, 0);
        for (int i = 0; i < 50; i++) {
            Map<String, TaskState> one = new LinkedHashMap<>();
            one.put("web", state(TaskLifeState.RUNNING));
            live.onUpdate(new AllocationState(String.format("%08d-0000", i), "many.g[" + i + "]", "many", "g", i,
                    ClientStatus.RUNNING, "", DesiredStatus.RUN, "", 0, 0, one, null));
        }
        live.close();

        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(out).endsWith("\r\u001b[2K... 31 more allocations: 31 running\n");
        // the last frame (after the last cursor-up of a redraw): a slow loop may have drawn an earlier frame of
        // 20 allocations, which fit uncut, at the rate limit's real-time tick
        String[] frames = out.split("\u001b\\[\\d+A");
        assertThat(frames[frames.length - 1]).contains("many.g[18]").doesNotContain("many.g[19]");
    }

    @Test
    void namesAreEscaped() {
        LiveStatus live = new LiveStatus(err, false, false, 0);
        Map<String, TaskState> one = new LinkedHashMap<>();
        one.put("w\u001b]0;pwned\u0007", state(TaskLifeState.RUNNING));
        live.onUpdate(new AllocationState("3c584bf6-98fc", "j\u001b[2J.g[0]", "j", "g", 0, ClientStatus.RUNNING,
                "", DesiredStatus.RUN, "", 0, 0, one, null));
        live.close();

        assertThat(bytes.toString(StandardCharsets.UTF_8))
                .isEqualTo("j\\x1b[2J.g[0] 3c584bf6  running  w\\x1b]0;pwned\\x07:running\n");
    }

    private static TaskState state(TaskLifeState s) {
        return new TaskState(s, false, 0, null, null, null, List.of());
    }

    private static AllocationState big(ClientStatus status, Map<String, TaskState> states) {
        return new AllocationState("3c584bf6-98fc-ccab-bf42-f7a8bfded3be", "big.g[0]", "big", "g", 0,
                status, "", DesiredStatus.RUN, "", 0, 0, states, null);
    }

    private static AllocationState alloc(ClientStatus status, TaskLifeState web, TaskLifeState cleanup) {
        Map<String, TaskState> states = new LinkedHashMap<>();
        states.put("web", new TaskState(web, false, 0, null, null, null, List.of()));
        states.put("cleanup", new TaskState(cleanup, false, 0, null, null, null, List.of()));
        return new AllocationState("3c584bf6-98fc-ccab-bf42-f7a8bfded3be", "example.g[0]", "example", "g", 0,
                status, "", DesiredStatus.RUN, "", 0, 0, states, null);
    }
}
