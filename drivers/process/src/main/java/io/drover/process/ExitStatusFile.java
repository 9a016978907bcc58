package io.drover.process;

import io.drover.driver.api.ExitResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The one-line file in which the shim ({@code src/main/c/drover-shim.c}) records how its task ended, written
 * atomically (tmp file, then rename): {@code exit N}, {@code signal N} or {@code exec ERRNO}. Pure apart from
 * reading the file; any thread.
 */
final class ExitStatusFile {
    /** What a status file says. {@code execErrno} ≠ 0: the task never ran (execv failed with that errno). */
    record Status(ExitResult result, int execErrno) {}

    private ExitStatusFile() {}

    /**
     * Reads the status.
     *
     * @return empty when the file does not exist (the task has not ended, or the shim died before writing it)
     * @throws IOException when the file exists but cannot be read or makes no sense (its text is in the message)
     */
    static Optional<Status> read(Path file) throws IOException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII).trim();
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        return Optional.of(parse(text, file));
    }

    static Status parse(String text, Path file) throws IOException {
        String[] parts = text.split(" ");
        try {
            if (parts.length == 2) {
                int n = Integer.parseInt(parts[1]);
                switch (parts[0]) {
                    case "exit":
                        if (n >= 0 && n <= 255) {
                            return new Status(ExitResult.code(n), 0);
                        }
                        break;
                    case "signal":
                        if (n > 0 && n < 65) {
                            return new Status(ExitResult.signalled(n), 0);
                        }
                        break;
                    case "exec":
                        if (n > 0) {
                            return new Status(ExitResult.code(127), n);
                        }
                        break;
                    default:
                        break;
                }
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IOException("unreadable exit status in " + file + ": \"" + text + "\"");
    }
}
