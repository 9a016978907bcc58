package io.drover.process;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Where Nomad's executor looks first for a bare command name (no slash): a regular file of that name in the
 * task's {@code local/}, then at the task directory's root, before any PATH search (lookupBin for raw_exec,
 * lookupTaskBin for exec, in drivers/shared/executor). A template rendered to {@code run.sh} or
 * {@code local/run.sh} is so run by {@code command = "run.sh"}. A link there is not followed, not even to look
 * (a task could plant one): the name is then left to the PATH search. Reads the file system; any thread.
 */
public final class TaskDirCommand {
    private TaskDirCommand() {}

    /** The file {@code command} names in {@code taskDir} ({@code local/NAME}, then {@code NAME}), if any. */
    public static Optional<Path> find(String command, Path taskDir) {
        if (command.isEmpty() || command.indexOf('/') >= 0 || command.equals(".") || command.equals("..")) {
            return Optional.empty();
        }
        for (Path p : List.of(taskDir.resolve("local").resolve(command), taskDir.resolve(command))) {
            if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
