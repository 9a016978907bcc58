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

    private static AllocationState alloc(ClientStatus status, TaskLifeState web, TaskLifeState cleanup) {
        Map<String, TaskState> states = new LinkedHashMap<>();
        states.put("web", new TaskState(web, false, 0, null, null, null, List.of()));
        states.put("cleanup", new TaskState(cleanup, false, 0, null, null, null, List.of()));
        return new AllocationState("3c584bf6-98fc-ccab-bf42-f7a8bfded3be", "example.g[0]", "example", "g", 0,
                status, "", DesiredStatus.RUN, "", 0, 0, states, null);
    }
}
