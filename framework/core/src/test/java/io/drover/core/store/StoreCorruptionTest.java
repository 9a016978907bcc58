package io.drover.core.store;

import static io.drover.core.store.StoreFixtures.initial;
import static io.drover.core.store.StoreFixtures.job;
import static io.drover.core.store.StoreFixtures.next;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.core.state.AllocationState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged store files are refused with one line naming the file and offset, and the open changes nothing: every
 * file of the store directory is kept byte for byte, so an operator can repair or restore it. (A torn tail of the
 * newest journal is not damage: JournalStoreTest.)
 */
class StoreCorruptionTest {
    @TempDir
    Path tmp;

    private Path dir() {
        return tmp.resolve("state");
    }

    /** A store with a snapshot (after a compaction) and a journal after it, each with several records. */
    private void storeWithSnapshotAndJournal() throws Exception {
        try (JournalStore store = JournalStore.open(dir(), StoreOptions.DEFAULT.withCompactBytes(4096))) {
            AllocationState[] s = new AllocationState[4];
            for (int a = 0; a < s.length; a++) {
                s[a] = initial(job("j" + a), "alloc-" + a, 1_000 + a);
            }
            for (int v = 0; v < 40; v++) {
                for (int a = 0; a < s.length; a++) {
                    s[a] = next(s[a], StoreFixtures.TASKS.get(v % 3), 10_000L + v);
                }
                JournalStoreTest.persistAll(store, List.of(s));
            }
        }
        assertThat(dir().resolve(StoreFiles.SNAPSHOT)).exists();
    }

    private Map<String, byte[]> contents() throws Exception {
        Map<String, byte[]> m = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir())) {
            for (Path f : (Iterable<Path>) files::iterator) {
                m.put(f.getFileName().toString(), Files.readAllBytes(f));
            }
        }
        return m;
    }

    private void assertRefusedAndUntouched(Path file) throws Exception {
        Map<String, byte[]> before = contents();
        assertThatThrownBy(() -> JournalStore.open(dir()))
                .isInstanceOf(StoreCorruptException.class)
                .hasMessageStartingWith("state store is corrupt: " + file + " at offset ")
                .hasMessageEndingWith("; refusing to open (restore the file or move the store directory aside)")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        Map<String, byte[]> after = contents();
        assertThat(after.keySet()).isEqualTo(before.keySet());
        before.forEach((name, bytes) -> assertThat(after.get(name)).as(name + " kept byte for byte").isEqualTo(bytes));
    }

    @Test
    void aFlippedByteInTheMiddleOfTheSnapshotIsRefusedAndNothingIsTouched() throws Exception {
        storeWithSnapshotAndJournal();
        Path snap = dir().resolve(StoreFiles.SNAPSHOT);
        byte[] data = Files.readAllBytes(snap);
        data[data.length / 2] ^= 0x5A;
        Files.write(snap, data);

        assertRefusedAndUntouched(snap);
    }

    @Test
    void aJournalWithAPieceCutOutOfItsMiddleIsRefusedNotTakenForATornTail() throws Exception {
        storeWithSnapshotAndJournal();
        Path journal;
        try (Stream<Path> files = Files.list(dir())) {
            journal = files.filter(f -> f.getFileName().toString().startsWith("journal-")).findFirst().orElseThrow();
        }
        byte[] data = Files.readAllBytes(journal);
        assertThat(data.length).as("a journal with records").isGreaterThan(600);
        int from = data.length / 3;
        byte[] cut = new byte[data.length - 100];
        System.arraycopy(data, 0, cut, 0, from);
        System.arraycopy(data, from + 100, cut, from, data.length - from - 100);
        Files.write(journal, cut);

        assertRefusedAndUntouched(journal);
        assertThat(Arrays.equals(Files.readAllBytes(journal), cut)).isTrue();
    }
}
