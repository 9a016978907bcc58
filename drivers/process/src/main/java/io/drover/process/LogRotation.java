package io.drover.process;

/**
 * Rotation of a task's output files, Nomad-style: {@code <base>.0}, {@code <base>.1}, ... each at most
 * {@code maxFileSize} bytes, at most {@code maxFiles} kept (the oldest is removed). Output then goes through
 * pipes read by the watcher thread and written by one log-writer thread; at most {@code bufferBytes} per
 * stream wait for the disk, what comes beyond is dropped and counted, so a slow disk never blocks the task.
 */
public record LogRotation(int maxFiles, long maxFileSize, int bufferBytes) {
    public static final int DEFAULT_BUFFER = 4 << 20;

    public LogRotation {
        if (maxFiles < 1 || maxFileSize < 1 || bufferBytes < 1) {
            throw new IllegalArgumentException("log rotation needs max_files, max_file_size and buffer ≥ 1");
        }
    }

    /** Nomad's defaults: 10 files of 10 MiB. */
    public static LogRotation nomadDefaults() {
        return of(10, 10);
    }

    public static LogRotation of(int maxFiles, int maxFileSizeMb) {
        return new LogRotation(maxFiles, (long) maxFileSizeMb << 20, DEFAULT_BUFFER);
    }
}
