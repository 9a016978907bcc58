package io.drover.cli.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.DesiredStatus;
import io.drover.core.state.TaskState;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AllocStatusFormatterTest {
    private static final ZoneOffset SEED_ZONE = ZoneOffset.ofHours(-4);

    @Test
    void printsTheSeedAllocationLikeNomadsAllocStatusVerbose() {
        String expected = """
                ID                  = 3c584bf6-98fc-ccab-bf42-f7a8bfded3be
                Name                = example.test-group[0]
                Job ID              = example
                Job Version         = 0
                Task Group          = test-group
                Client Status       = complete
                Client Description  = All tasks have completed
                Desired Status      = run
                Desired Description = <none>
                Created             = 2023-07-17T16:28:14.100-04:00
                Modified            = 2023-07-17T16:28:14.140-04:00

                Task "poststop" (poststop) is "dead"

                Task Events:
                Started At     = 2023-07-17T20:28:14.122Z
                Finished At    = 2023-07-17T20:28:14.132Z
                Total Restarts = 0
                Last Restart   = N/A

                Recent Events:
                Time                           Type        Description
                2023-07-17T16:28:14.132-04:00  Terminated  Exit Code: 0
                2023-07-17T16:28:14.122-04:00  Started     Task started by client
                2023-07-17T16:28:14.121-04:00  Task Setup  Building Task Directory
                2023-07-17T16:28:14.120-04:00  Received    Task received by client

                Task "test-task" is "dead"

                Task Events:
                Started At     = 2023-07-17T20:28:14.102Z
                Finished At    = 2023-07-17T20:28:14.112Z
                Total Restarts = 0
                Last Restart   = N/A

                Recent Events:
                Time                           Type        Description
                2023-07-17T16:28:14.112-04:00  Terminated  Exit Code: 0
                2023-07-17T16:28:14.102-04:00  Started     Task started by client
                2023-07-17T16:28:14.101-04:00  Task Setup  Building Task Directory
                2023-07-17T16:28:14.100-04:00  Received    Task received by client
                """;

        assertThat(AllocStatusFormatter.format(Fixtures.seedAlloc(), SEED_ZONE)).isEqualTo(expected);
    }

    @Test
    void sortsTasksByNameAndLabelsEveryLifecycleKind() {
        String text = AllocStatusFormatter.format(Fixtures.seedAlloc(), ZoneOffset.UTC);

        assertThat(text.indexOf("Task \"poststop\" (poststop)")).isLessThan(text.indexOf("Task \"test-task\" is"));
    }

    @Test
    void aTaskWithoutEventsShowsTheHeaderOnlyAndNotAvailableTimes() {
        AllocationState alloc = withTasks(Map.of("test-task", TaskState.initial()));

        String text = AllocStatusFormatter.format(alloc, ZoneOffset.UTC);

        assertThat(text).contains("Task \"test-task\" is \"pending\"")
                .contains("Started At     = N/A")
                .contains("Last Restart   = N/A")
                .endsWith("Recent Events:\nTime  Type  Description\n");
    }

    @Test
    void noLineEndsInBlanks() {
        String text = AllocStatusFormatter.format(Fixtures.seedAlloc(), SEED_ZONE);

        assertThat(text.lines()).noneMatch(l -> l.endsWith(" "));
    }

    @Test
    void anEmptyClientDescriptionFallsBackToTheStatusDescription() {
        AllocationState alloc = withTasks(Map.of());

        assertThat(AllocStatusFormatter.format(alloc, ZoneOffset.UTC))
                .contains("Client Description  = Tasks are running");
    }

    private static AllocationState withTasks(Map<String, TaskState> states) {
        AllocationState seed = Fixtures.seedAlloc();
        return new AllocationState(seed.id(), seed.name(), seed.jobId(), seed.taskGroup(), 0, ClientStatus.RUNNING,
                "", DesiredStatus.RUN, "", seed.createTime(), seed.modifyTime(), states, seed.job());
    }

    @Test
    void columnsAreTwoSpacesApartAndAsWideAsTheWidestCell() {
        String table = Columns.table(List.of(new String[] {"a", "b", "c"}, new String[] {"long", "x", ""}));

        assertThat(table).isEqualTo("a     b  c\nlong  x\n");
    }
}
