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

/**
 * The SIGKILL of a live task kills its group first and searches afterwards, so a descendant that left the session
 * must be found without its parent link: by the {@link ProcessSupervisor#TREE_VAR} marker it inherited.
 */
@ExtendWith(ProcessLeakCheck.class)
class EscapedDescendantTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    @RegisterExtension
    static final SupervisorFixture SUPERVISORS = SupervisorFixture.of("test");

    @TempDir
    Path dir;

    @Test
    void aSetsidDescendantWhoseParentAlreadyExitedIsFoundByItsMarkerAndKilled() throws Exception {
        // the middle shell starts a setsid'ed sleep and exits: the sleep is re-parented, in its own session
        SupervisedProcess p = SUPERVISORS.first().spawn(new SpawnSpec("sh", List.of("-c",
                "sh -c 'setsid sleep 1000 & echo $! > gc.pid'; : > ready; exec sleep 1000"), ProcessLeakCheck.env(),
                dir, dir.resolve("out"), dir.resolve("err")));
        Await.until("ready", WAIT, () -> Files.exists(dir.resolve("ready")));
        int escaped = Integer.parseInt(Files.readString(dir.resolve("gc.pid")).trim());
        Await.until("escapee exec'd sleep in its own session", WAIT, () -> ProcTable.read(escaped)
                .map(g -> g.comm().equals("sleep") && g.sid() == escaped).orElse(false));
        assertThat(ProcTable.read(escaped).orElseThrow().ppid()).as("no parent link to the task")
                .isNotEqualTo(p.pid());
        Await.until("its environment carries the marker", WAIT, () -> ProcTable.environHas(escaped, p.treeMarker()));

        KillReport report = p.killTree().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(p.onExit().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS))
                .isEqualTo(ExitResult.signalled(9));
        assertThat(report.clean()).isTrue();
        assertThat(report.killed()).extracting(ProcTable.Proc::pid).contains(escaped);
        assertThat(ProcTable.read(escaped).filter(g -> !g.zombie())).isEmpty();
    }

    @Test
    void theMarkerIsAnExactEntryNotAPrefix() throws Exception {
        SupervisedProcess p = SUPERVISORS.first().spawn(new SpawnSpec("sh", List.of("-c", ": > ready; exec sleep 1000"),
                ProcessLeakCheck.env(), dir, dir.resolve("out"), dir.resolve("err")));
        Await.until("ready", WAIT, () -> Files.exists(dir.resolve("ready")));
        // comm changes early in execve, the new environment's bounds only later: a process seen as "sleep" may
        // show an empty environ for a moment (a verify run saw it), so await the marker rather than assert it
        Await.until("exec'd with the marker", WAIT, () -> ProcTable.read(p.pid()).map(q -> q.comm().equals("sleep"))
                .orElse(false) && ProcTable.environHas(p.pid(), p.treeMarker()));
        assertThat(ProcTable.environHas(p.pid(), p.treeMarker().substring(0, p.treeMarker().length() - 1))).isFalse();
        assertThat(ProcTable.environHas(p.pid(), p.treeMarker() + "0")).isFalse();
        p.killTree().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        p.onExit().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }
}
