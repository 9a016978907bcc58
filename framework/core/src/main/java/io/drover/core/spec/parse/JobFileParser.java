package io.drover.core.spec.parse;

import io.drover.core.spec.Job;
import java.nio.file.Path;

/**
 * Reads a job file, HCL (Nomad's jobspec) or JSON (Nomad's API shape {@code {"Job": {...}}}), into a
 * validated {@link Job}. Pure and thread-safe. Refuses with a {@link JobFileException} naming file, line and
 * key; nothing else escapes (no other exception type for any input).
 */
public final class JobFileParser {
    private JobFileParser() {}

    public static Job parse(Path file) throws JobFileException {
        throw new UnsupportedOperationException("parser not written yet");
    }

    /** @param sourceName file name for messages; its extension ({@code .json}) picks the syntax */
    public static Job parse(String sourceName, byte[] content) throws JobFileException {
        throw new UnsupportedOperationException("parser not written yet");
    }
}
