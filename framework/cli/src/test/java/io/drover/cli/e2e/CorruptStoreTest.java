package io.drover.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A corrupted store file under a real agent child JVM: the agent refuses to start with one line naming the file
 * and offset, and keeps the damaged file byte for byte (nothing truncated or rewritten) so an operator can repair
 * it. The other shapes of damage (a damaged snapshot, a journal with a piece cut out of its middle, a bad frame in
 * an older journal, a snapshot without its end) are refused the same way at the store level:
 * StoreCorruptionTest and JournalStoreTest in framework/core.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CorruptStoreTest {
    private static final Duration START = Duration.ofSeconds(30);

    @TempDir
    Path tmp;

    private AgentProcess first;
    private AgentProcess second;

    @AfterEach
    void killAgents() throws Exception {
        for (AgentProcess a : new AgentProcess[] {first, second}) {
            if (a != null) {
                a.close();
                assertThat(a.process().isAlive()).isFalse();
            }
        }
        assertThat(NoProcessLeft.under(tmp.resolve("data"))).isEmpty();
    }

    @Test
    void aCorruptStoreFileRefusesTheStartWithOneLineNamingItAndIsKeptByteForByte() throws Exception {
        Path config = AgentTestConfig.write(tmp);
        first = AgentProcess.start(config, tmp.resolve("first.err"));
        String addr = first.awaitAddress(START);
        assertThat(CliRun.of("job", "run", "-address", addr, AgentTestConfig.job(tmp, "x", "10ms").toString())
                .exitCode()).isZero();
        first.terminate();
        Path journal;
        try (var files = Files.list(tmp.resolve("data").resolve("state"))) {
            journal = files.filter(f -> f.getFileName().toString().startsWith("journal-")).findFirst().orElseThrow();
        }
        StoreDamage.flipByteInAMiddleRecord(journal);
        byte[] damaged = Files.readAllBytes(journal);
        List<Path> before;
        try (var files = Files.list(journal.getParent())) {
            before = files.sorted().toList();
        }

        second = AgentProcess.start(config, tmp.resolve("second.err"));
        assertThat(second.process().waitFor(30, TimeUnit.SECONDS)).as("the agent refuses to start").isTrue();

        assertThat(second.process().exitValue()).isEqualTo(1);
        String err = second.stderr();
        List<String> errors = err.lines().filter(l -> l.startsWith("Error: ")).toList();
        assertThat(errors).hasSize(1);
        assertThat(errors.get(0)).contains("state store is corrupt", journal.toString(), " at offset ");
        assertThat(err).doesNotContain("\tat ", "API: ");
        assertThat(Files.readAllBytes(journal)).as("the damaged file is kept byte for byte").isEqualTo(damaged);
        try (var files = Files.list(journal.getParent())) {
            assertThat(files.sorted().toList()).as("no file added or removed").isEqualTo(before);
        }
    }
}
