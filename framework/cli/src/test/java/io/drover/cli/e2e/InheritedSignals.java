package io.drover.cli.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What this test JVM inherited about signals: a background job of a non-interactive shell (and so a CI run started
 * with {@code nohup ... &}) ignores SIGINT, and every process the tests start inherits that ignore across exec.
 */
final class InheritedSignals {
    private InheritedSignals() {}

    /** Whether this process ignores SIGINT (bit 1 of SigIgn in /proc/self/status). */
    static boolean sigintIgnored() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring(7).strip(), 16) & 0b10) != 0;
            }
        }
        return false;
    }
}
