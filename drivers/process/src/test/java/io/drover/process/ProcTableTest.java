package io.drover.process;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Reading {@code /proc/<pid>/stat}: this JVM's own line, a buffer too small for it, a pid that does not exist. */
class ProcTableTest {
    private static final int SELF = (int) ProcessHandle.current().pid();

    @Test
    void theSnapshotHoldsThisJvmWithItsParent() {
        ProcTable.Proc self = ProcTable.snapshot().get(SELF).orElseThrow();
        assertThat(self.ppid()).isEqualTo((int) ProcessHandle.current().parent().orElseThrow().pid());
        assertThat(self.comm()).isNotEmpty();
        assertThat(self.startTime()).isPositive();
        assertThat(ProcTable.read(SELF)).contains(self);
    }

    @Test
    void aBufferTooSmallGrowsToTheWholeLine() {
        assertThat(ProcTable.read(SELF, new byte[8])).isEqualTo(ProcTable.read(SELF));
    }

    @Test
    void aPidThatDoesNotExistReadsEmpty() {
        assertThat(ProcTable.read(Integer.MAX_VALUE)).isEmpty();
    }

    @Test
    void parsesACommWithSpacesAndParentheses() {
        ProcTable.Proc p = ProcTable.parse("42 (a (b) c) S 1 42 42 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 777 0 0");
        assertThat(p).isEqualTo(new ProcTable.Proc(42, "a (b) c", 'S', 1, 42, 42, 777));
    }
}
