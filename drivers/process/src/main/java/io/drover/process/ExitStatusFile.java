package io.drover.process;

import io.drover.driver.api.ExitResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystemException;
import java.nio.file.LinkOption;
import java.nio.file.StandardOpenOption;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The one-line file in which the shim ({@code src/main/c/drover-shim.c}) records how its task ended and when:
 * {@code exit N}, {@code signal N} or {@code exec ERRNO}, then {@code ended T} (unix nanoseconds, wall clock; a
 * shim before this field wrote none). Read without following a link and at most {@value #MAX_BYTES} bytes: it
 * lies in the task dir, which the task can write. Pure apart from reading the file; any thread.
 */
final class ExitStatusFile {
    static final int MAX_BYTES = 128;

    /**
     * What a status file says. {@code execErrno} ≠ 0: the task never ran (execv failed with that errno).
     *
     * @param endedAtNanos when the shim reaped the task (unix nanoseconds), -1 when the file does not say
     */
    record Status(ExitResult result, int execErrno, long endedAtNanos) {
        Status(ExitResult result, int execErrno) {
            this(result, execErrno, -1);
        }
    }

    private ExitStatusFile() {}

    /**
     * Reads the status.
     *
     * @return empty when the file does not exist (the task has not ended, or the shim died before writing it)
     * @throws IOException when the file exists but cannot be read or makes no sense (its text is in the message)
     */
    static Optional<Status> read(Path file) throws IOException {
        String text;
        try (SeekableByteChannel ch = Files.newByteChannel(file, StandardOpenOption.READ,
                LinkOption.NOFOLLOW_LINKS)) {
            ByteBuffer buf = ByteBuffer.allocate(MAX_BYTES + 1);
            while (buf.hasRemaining() && ch.read(buf) > 0) {
                // a line is a few dozen bytes
            }
            if (buf.position() > MAX_BYTES) {
                throw new IOException("unreadable exit status in " + file + ": longer than " + MAX_BYTES + " bytes");
            }
            text = new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII).trim();
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) { // a link (ELOOP: the JDK words it as a plain IOException), a folder, ...
            String why = e instanceof FileSystemException fse && fse.getReason() != null ? fse.getReason()
                    : e.getMessage();
            throw why != null && why.startsWith("unreadable exit status") ? e
                    : new IOException("unreadable exit status in " + file + ": " + why, e);
        }
        return Optional.of(parse(text, file));
    }

    static Status parse(String text, Path file) throws IOException {
        String[] parts = text.split(" ");
        try {
            long ended = -1;
            if (parts.length == 4 && parts[2].equals("ended")) {
                ended = Long.parseLong(parts[3]);
                if (ended <= 0) {
                    throw new NumberFormatException();
                }
            }
            if (parts.length == 2 || ended > 0) {
                int n = Integer.parseInt(parts[1]);
                switch (parts[0]) {
                    case "exit":
                        if (n >= 0 && n <= 255) {
                            return new Status(ExitResult.code(n), 0, ended);
                        }
                        break;
                    case "signal":
                        if (n > 0 && n < 65) {
                            return new Status(ExitResult.signalled(n), 0, ended);
                        }
                        break;
                    case "exec":
                        if (n > 0) {
                            return new Status(ExitResult.code(127), n, ended);
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
