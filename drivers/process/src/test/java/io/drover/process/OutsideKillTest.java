package io.drover.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.driver.api.ExitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** A SIGKILL the agent did not send is named in the exit's message, with and without the shim; the agent's is not. */
@ExtendWith(ProcessLeakCheck.class)
class OutsideKillTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    @RegisterExtension
    static final SupervisorFixture SUPERVISORS = SupervisorFixture.of("test");

    @TempDir
    Path dir;

    @Test
    void aTaskKilledFromOutsideSaysSoAndWhetherTheOomKillerFired() throws Exception {
        ExitResult r = exit(SUPERVISORS.first().spawn(spec("kill -9 $$", null)));
        assertThat(r.signal()).isEqualTo(9);
        assertThat(r.message()).startsWith(OutsideKill.KILLED + "; the kernel's OOM killer ")
                .contains(" between the task's start and its exit");
    }

    @Test
    void underTheShimToo() throws Exception {
        ExitResult r = exit(SUPERVISORS.first().spawn(spec("kill -9 $$", dir.resolve("status"))));
        assertThat(r.signal()).isEqualTo(9);
        assertThat(r.message()).startsWith(OutsideKill.KILLED);
    }

    @Test
    void theAgentsOwnSigkillIsNotNamedOutside() throws Exception {
        SupervisedProcess p = SUPERVISORS.first().spawn(spec(": > ready; exec sleep 1000", dir.resolve("status")));
        Await.until("ready", WAIT, () -> Files.exists(dir.resolve("ready")));
        p.signal(9);
        ExitResult r = exit(p);
        assertThat(r.signal()).isEqualTo(9);
        assertThat(r.message()).doesNotContain("did not send");
    }

    @Test
    void theOomClauseCountsTheCounter() {
        assertThat(OutsideKill.oomKills("pgfault 3\noom_kill 7\nx 1\n")).isEqualTo(7);
        assertThat(OutsideKill.oomKills("pgfault 3\n")).isEqualTo(-1);
        assertThat(OutsideKill.message(7, 7, "the task's start")).isEqualTo(OutsideKill.KILLED
                + "; the kernel's OOM killer did not fire between the task's start and its exit");
        assertThat(OutsideKill.message(7, 8, "the task's start")).isEqualTo(OutsideKill.KILLED
                + "; the kernel's OOM killer fired once between the task's start and its exit (oom_kill in /proc/vmstat)");
        assertThat(OutsideKill.message(7, 10, "its re-attach")).contains("fired 3 times between its re-attach");
        assertThat(OutsideKill.message(-1, 3, "x")).endsWith("whether the kernel's OOM killer fired is unknown "
                + "(no oom_kill in /proc/vmstat)");
        assertThat(OutsideKill.oomKills()).as("this kernel has the counter").isNotNegative();
    }

    @Test
    void aKnownKillerStripsEachFormOfTheClauseAndNothingElse() {
        for (String clause : List.of(OutsideKill.message(7, 7, "the task's start"),
                OutsideKill.message(7, 8, "the task's start"), OutsideKill.message(7, 10, "its re-attach"),
                OutsideKill.message(-1, 3, "the task's start"))) {
            assertThat(OutsideKill.strip(clause)).as(clause).isEmpty();
            assertThat(OutsideKill.strip(clause + "; 2 processes left")).as(clause).isEqualTo("2 processes left");
        }
        assertThat(OutsideKill.strip("2 processes left")).isEqualTo("2 processes left");
        assertThat(OutsideKill.strip("x; " + OutsideKill.message(7, 7, "y"))).startsWith("x; ");
    }

    private SpawnSpec spec(String script, Path statusFile) {
        return new SpawnSpec("sh", List.of("-c", script), ProcessLeakCheck.env(), dir, dir.resolve("out"),
                dir.resolve("err"), null, statusFile);
    }

    private static ExitResult exit(SupervisedProcess p) throws Exception {
        return p.onExit().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }
}
