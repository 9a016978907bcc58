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
 * The file in which the shim ({@code src/main/c/drover-shim.c}) records how its task ended and when: a first line
 * {@code exit N}, {@code signal N} or {@code exec ERRNO}, then {@code ended T} (unix nanoseconds, wall clock; a
 * shim before this field wrote none); then, when the shim killed what the task left behind, a second line
 * {@code killed P P ... [+N]} (the first 32 pids it signalled, and how many more; older shims wrote none). Read
 * without following a link and at most {@value #MAX_FILE_BYTES} bytes, its first line at most {@value #MAX_BYTES}:
 * it lies in the task dir, which the task can write. Pure apart from reading the file; any thread.
 */
final class ExitStatusFile {
    static final int MAX_BYTES = 128;
    static final int MAX_FILE_BYTES = 1024;

    /**
     * What a status file says. {@code execErrno} ≠ 0: the task never ran (execv failed with that errno, or, with
     * {@code cgroupJoin}, joining its cgroup did: "cgroup E").
     *
     * @param endedAtNanos when the shim reaped the task (unix nanoseconds), -1 when the file does not say
     * @param killed the pids the shim SIGKILLed after the task ended (at most 32 listed), empty when none
     */
    record Status(ExitResult result, int execErrno, long endedAtNanos, java.util.List<Integer> killed,
            boolean cgroupJoin) {
        Status {
            killed = java.util.List.copyOf(killed);
        }

        Status(ExitResult result, int execErrno, long endedAtNanos, java.util.List<Integer> killed) {
            this(result, execErrno, endedAtNanos, killed, false);
        }

        Status(ExitResult result, int execErrno, long endedAtNanos) {
            this(result, execErrno, endedAtNanos, java.util.List.of());
        }

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
            ByteBuffer buf = ByteBuffer.allocate(MAX_FILE_BYTES + 1);
            while (buf.hasRemaining() && ch.read(buf) > 0) {
                // a line is a few dozen bytes, the killed line at most ~400
            }
            text = new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII);
            int eol = text.indexOf('\n');
            if (buf.position() > MAX_FILE_BYTES || (eol < 0 ? text.length() : eol) > MAX_BYTES) {
                throw new IOException("unreadable exit status in " + file + ": longer than " + MAX_BYTES + " bytes");
            }
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) { // a link (ELOOP: the JDK words it as a plain IOException), a folder, ...
            String why = e instanceof FileSystemException fse && fse.getReason() != null ? fse.getReason()
                    : e.getMessage();
            throw why != null && why.startsWith("unreadable exit status") ? e
                    : new IOException("unreadable exit status in " + file + ": " + why, e);
        }
        int eol = text.indexOf('\n');
        Status status = parse((eol < 0 ? text : text.substring(0, eol)).trim(), file);
        java.util.List<Integer> killed = eol < 0 ? java.util.List.of() : killed(text.substring(eol + 1).trim());
        return Optional.of(killed.isEmpty() ? status
                : new Status(status.result(), status.execErrno(), status.endedAtNanos(), killed,
                        status.cgroupJoin()));
    }

    /** The pids of a {@code killed P P ... [+N]} line; empty for anything else (the line only informs). */
    static java.util.List<Integer> killed(String line) {
        String[] parts = line.split(" ");
        if (parts.length < 2 || !parts[0].equals("killed")) {
            return java.util.List.of();
        }
        java.util.List<Integer> pids = new java.util.ArrayList<>();
        for (int i = 1; i < parts.length; i++) {
            if (parts[i].startsWith("+")) {
                break;
            }
            try {
                int pid = Integer.parseInt(parts[i]);
                if (pid > 1) {
                    pids.add(pid);
                }
            } catch (NumberFormatException e) {
                return java.util.List.of();
            }
        }
        return pids;
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
                    case "cgroup":
                        if (n > 0) {
                            return new Status(ExitResult.code(127), n, ended, java.util.List.of(), true);
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
