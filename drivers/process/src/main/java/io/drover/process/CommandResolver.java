package io.drover.process;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds the file a command names, as execvp would but against the task's PATH rather than the agent's. Pure
 * apart from reading the file system; any thread.
 */
final class CommandResolver {
    /** PATH used when the task's environment has none (glibc's default for execvp). */
    static final String DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";

    private CommandResolver() {}

    /**
     * A command with a slash is a path (relative to {@code workDir} when not absolute); otherwise the first
     * regular file of that name on {@code path} that is executable, else the first that exists (so that exec
     * reports "Permission denied" for it). Empty when nothing is found.
     */
    static Optional<Path> resolve(String command, String path, Path workDir) {
        if (command.isEmpty()) {
            return Optional.empty();
        }
        if (command.indexOf('/') >= 0) {
            return Optional.of(workDir.resolve(command).normalize());
        }
        Path existing = null;
        for (String dir : (path == null ? DEFAULT_PATH : path).split(":", -1)) {
            Path candidate = (dir.isEmpty() ? workDir : workDir.resolve(dir)).resolve(command);
            if (Files.isRegularFile(candidate)) {
                if (Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
                if (existing == null) {
                    existing = candidate;
                }
            }
        }
        return Optional.ofNullable(existing);
    }
}
