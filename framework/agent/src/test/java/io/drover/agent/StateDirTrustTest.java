package io.drover.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.core.config.AgentConfig;
import io.drover.core.config.ClientConfig;
import io.drover.core.state.ClientStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 10 replayed against real agents: a world-writable data_dir (like /tmp) whose {@code state/}
 * another user ({@code nobody}) pre-created is refused with one line, not adopted; after a real agent ran a job,
 * the journal moved away makes the restart refuse, naming the missing file, instead of restoring 0 allocations
 * without a word; put back, the allocation is restored. A brand-new data_dir still starts empty.
 */
class StateDirTrustTest {
    @TempDir
    Path tmp;

    @Test
    void aStateDirAnotherUserPreCreatedIsRefused() throws Exception {
        Path shared = Files.createDirectories(tmp.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx")); // like /tmp
        Path state = Files.createDirectories(shared.resolve(Agent.STATE_DIR));
        Files.setAttribute(state, "unix:uid", 65534);
        AgentConfig config = new AgentConfig(shared, null, "INFO", "127.0.0.1", 0, ClientConfig.defaults(), Map.of());

        assertThatThrownBy(() -> Agent.start(config, () -> {})).isInstanceOf(AgentStartException.class)
                .hasMessage("state store: " + state + " is owned by user nobody (uid 65534), not by the agent's "
                        + "user (uid 0): another user could have removed or replaced its files; refusing to open "
                        + "(check its content, then chown it to the agent's user and chmod 700 it, or move it aside)");
        assertThat(Files.getAttribute(state, "unix:uid")).as("not adopted").isEqualTo(65534);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(state))).isEqualTo("rwxr-xr-x");
    }

    @Test
    void aJournalMovedAwayRefusesTheRestartNamingIt() throws Exception {
        String alloc;
        try (TestAgent api = TestAgent.start(tmp)) {
            assertThat(api.agent.engine().allocations()).as("a brand-new data_dir starts empty").isEmpty();
            alloc = api.agent.jobs().register(MockJobs.batch("j", 1, MockJobs.task("web", "run_for", "10ms")))
                    .placed().get(0).id();
            Await.until("the job completes", () -> api.alloc(alloc).clientStatus() == ClientStatus.COMPLETE);
        }
        Path journal = tmp.resolve("data").resolve(Agent.STATE_DIR).resolve("journal-0000000001.log");
        Files.move(journal, tmp.resolve("elsewhere.log"));

        assertThatThrownBy(() -> TestAgent.start(tmp)).isInstanceOf(AgentStartException.class)
                .hasMessage("state store: " + journal + " is missing (" + journal.resolveSibling("store.generation")
                        + " says generation 1 was written); refusing to open rather than start without the "
                        + "allocations it held (put the file back, or move the store directory aside to start "
                        + "empty)");

        Files.move(tmp.resolve("elsewhere.log"), journal);
        try (TestAgent api = TestAgent.start(tmp)) {
            assertThat(api.alloc(alloc).clientStatus()).isEqualTo(ClientStatus.COMPLETE);
        }
        assertThat(ProcessHandle.current().children().toList()).as("no process left").isEmpty();
    }
}
