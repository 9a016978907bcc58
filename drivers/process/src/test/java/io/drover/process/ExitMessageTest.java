package io.drover.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ExitMessageTest {
    @Test
    void emptyWhenNothingWentWrong() {
        assertThat(ExitMessage.of(List.of(), 0)).isEmpty();
    }

    @Test
    void namesSurvivorsAndCountsDrops() {
        ProcTable.Proc stuck = new ProcTable.Proc(4242, "sleep", 'D', 1, 4240, 4240, 99);
        assertThat(ExitMessage.of(List.of(stuck), 0))
                .isEqualTo("1 process of the task survived SIGKILL: 4242 (sleep, state D)");
        assertThat(ExitMessage.of(List.of(stuck, stuck), 10)).isEqualTo("2 processes of the task survived SIGKILL: "
                + "4242 (sleep, state D), 4242 (sleep, state D); 10 bytes of output dropped (disk too slow)");
    }

    @Test
    void parsesProcStatWithSpacesAndParensInTheName() {
        ProcTable.Proc p = ProcTable.parse("123 (a (b) c) S 1 120 120 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 777 0 0");
        assertThat(p).isEqualTo(new ProcTable.Proc(123, "a (b) c", 'S', 1, 120, 120, 777));
    }
}
