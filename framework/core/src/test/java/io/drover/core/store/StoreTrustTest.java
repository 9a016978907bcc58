package io.drover.core.store;

import static io.drover.core.store.JournalStoreTest.await;
import static io.drover.core.store.JournalStoreTest.persistAll;
import static io.drover.core.store.StoreFixtures.advance;
import static io.drover.core.store.StoreFixtures.initial;
import static io.drover.core.store.StoreFixtures.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.core.state.AllocationState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 10 on the store itself (the agent-level replay is {@code StateDirTrustTest}): a store directory
 * another user owns, or others may write, is refused; a journal or snapshot that its marker says was written and
 * that is gone refuses the open instead of starting empty; a new directory still starts empty, and a store written
 * before the marker existed opens and gets one.
 */
class StoreTrustTest {
    @TempDir
    Path tmp;

    private Path dir() {
        return tmp.resolve("state");
    }

    private void writeSome(StoreOptions options, int allocs) throws Exception {
        try (JournalStore store = JournalStore.open(dir(), options)) {
            List<AllocationState> states = new ArrayList<>();
            for (int i = 0; i < allocs; i++) {
                states.add(advance(initial(job("j"), "alloc-" + i, 1_000L + i), 20, 2_000L + i));
            }
            persistAll(store, states);
            await(store);
        }
    }

    @Test
    void aStateDirOwnedByAnotherUserIsRefused() throws Exception {
        writeSome(StoreOptions.DEFAULT, 1);
        Files.setAttribute(dir(), "unix:uid", 65534);

        assertThatThrownBy(() -> JournalStore.open(dir())).isInstanceOf(StoreRefusedException.class)
                .hasMessage("state store: " + dir() + " is owned by user nobody (uid 65534), not by the agent's "
                        + "user (uid 0): another user could have removed or replaced its files; refusing to open "
                        + "(check its content, then chown it to the agent's user and chmod 700 it, or move it aside)");
        assertThat(Files.getAttribute(dir(), "unix:uid")).as("left as it was").isEqualTo(65534);
    }

    @Test
    void aStateDirOthersMayWriteIsRefused() throws Exception {
        Files.createDirectories(dir());
        Files.setPosixFilePermissions(dir(), PosixFilePermissions.fromString("rwxrwxrwx"));

        assertThatThrownBy(() -> JournalStore.open(dir())).isInstanceOf(StoreRefusedException.class)
                .hasMessageStartingWith("state store: " + dir() + " is writable by other users (rwxrwxrwx)");
    }

    @Test
    void aMissingJournalRefusesTheOpenInsteadOfStartingEmpty() throws Exception {
        writeSome(StoreOptions.DEFAULT, 3);
        Path journal = dir().resolve("journal-0000000001.log");
        Files.move(journal, tmp.resolve("moved-away.log"));

        assertThatThrownBy(() -> JournalStore.open(dir())).isInstanceOf(StoreRefusedException.class)
                .hasMessage("state store: " + journal + " is missing (" + dir().resolve("store.generation")
                        + " says generation 1 was written); refusing to open rather than start without the "
                        + "allocations it held (put the file back, or move the store directory aside to start "
                        + "empty)");

        Files.move(tmp.resolve("moved-away.log"), journal);
        try (JournalStore store = JournalStore.open(dir())) {
            assertThat(store.load()).hasSize(3);
        }
    }

    @Test
    void aMissingSnapshotOrNewestJournalAfterCompactionRefusesTheOpen() throws Exception {
        writeSome(StoreOptions.DEFAULT.withCompactBytes(2048), 40);
        long gen = new StoreFiles(dir()).markedGen().orElseThrow();
        assertThat(gen).as("compacted at least once").isGreaterThan(1);
        Path newest = new StoreFiles(dir()).journal(gen);
        Path snapshot = dir().resolve("state.snapshot");

        Files.move(snapshot, tmp.resolve("snapshot"));
        assertThatThrownBy(() -> JournalStore.open(dir())).isInstanceOf(StoreRefusedException.class)
                .hasMessageStartingWith("state store: " + snapshot + " is missing (");
        Files.move(tmp.resolve("snapshot"), snapshot);

        Files.move(newest, tmp.resolve("newest"));
        assertThatThrownBy(() -> JournalStore.open(dir())).isInstanceOf(StoreRefusedException.class)
                .hasMessageStartingWith("state store: " + newest + " is missing (");
        Files.move(tmp.resolve("newest"), newest);

        try (JournalStore store = JournalStore.open(dir())) {
            assertThat(store.load()).hasSize(40);
        }
    }

    @Test
    void aNewDirectoryStartsEmptyAndAnOldStoreWithoutMarkerGetsOne() throws Exception {
        try (JournalStore store = JournalStore.open(dir())) {
            assertThat(store.load()).isEmpty();
        }
        assertThat(Files.readString(dir().resolve("store.generation"))).isEqualTo("1\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir().resolve("store.generation"))))
                .isEqualTo("rw-------");

        writeSome(StoreOptions.DEFAULT, 2);
        Files.delete(dir().resolve("store.generation")); // as a store of the previous version has it
        try (JournalStore store = JournalStore.open(dir())) {
            assertThat(store.load()).hasSize(2);
        }
        assertThat(Files.readString(dir().resolve("store.generation"))).isEqualTo("1\n");
    }
}
