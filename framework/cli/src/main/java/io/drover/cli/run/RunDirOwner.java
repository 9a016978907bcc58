package io.drover.cli.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * Which process a temporary {@code drover run} data dir belongs to: the file {@value #FILE} at its root holds the
 * owner's pid and start time ({@code 4711 1736514131305}, milliseconds), so that a later run can tell a dir whose
 * owner died without deleting it (SIGKILL, a crash) from one a live run still uses — also after the pid was
 * reused by another process, whose start time differs. Value type; {@link #alive} reads {@code /proc} through
 * {@link ProcessHandle}.
 */
record RunDirOwner(long pid, long startMillis) {
    static final String FILE = ".drover-run-owner";

    /** This JVM; start time 0 when the platform does not tell it (the dir then always counts as owned). */
    static RunDirOwner current() {
        ProcessHandle self = ProcessHandle.current();
        return new RunDirOwner(self.pid(), self.info().startInstant().map(Instant::toEpochMilli).orElse(0L));
    }

    void writeTo(Path dir) throws IOException {
        Files.writeString(dir.resolve(FILE), pid + " " + startMillis + "\n", StandardCharsets.US_ASCII);
    }

    /** The owner recorded in {@code dir}; empty when the file is missing or unreadable (not a dir of ours). */
    static Optional<RunDirOwner> readFrom(Path dir) {
        try {
            String[] f = Files.readString(dir.resolve(FILE), StandardCharsets.US_ASCII).trim().split(" ");
            return Optional.of(new RunDirOwner(Long.parseLong(f[0]), Long.parseLong(f[1])));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Whether the owner still runs: a process with this pid that started at the recorded time (or unknown). */
    boolean alive() {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                .map(p -> startMillis == 0 || p.info().startInstant().map(Instant::toEpochMilli)
                        .map(t -> t == startMillis).orElse(true))
                .orElse(false);
    }
}
