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

    @Test
    void theByteParserReadsWhatTheStringParserReads() {
        String line = "42 (a (b) c) S 1 42 42 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 777 0 0\n";
        byte[] bytes = line.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(ProcTable.parse(bytes, bytes.length)).isEqualTo(ProcTable.parse(line));
        // every process of this machine, through both parsers
        for (ProcTable.Proc p : ProcTable.snapshot().all()) {
            try {
                String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/" + p.pid() + "/stat"));
                byte[] b = stat.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                assertThat(ProcTable.parse(b, b.length)).isEqualTo(ProcTable.parse(stat));
            } catch (java.io.IOException gone) {
                // exited meanwhile
            }
        }
    }

    @Test
    void aTruncatedLineIsRefusedNotMisread() {
        byte[] bytes = "42 (sh) S 1 42".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ProcTable.parse(bytes, bytes.length))
                .isInstanceOf(RuntimeException.class);
    }
}
