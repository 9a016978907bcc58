package io.drover.core.engine;

import java.nio.file.Path;

/**
 * The paths of one task inside its allocation, derived and checked once per task ({@link AllocDirs#task},
 * {@link AllocDirs#log}) instead of at every run and by every hook that needs them: its directory, its
 * {@code local} and {@code secrets}, and its first stdout and stderr log files. A value; the derivation is pure (no
 * file is touched).
 */
record TaskPaths(Path dir, Path local, Path secrets, Path stdout, Path stderr) {

    /** @throws UnsafePathException when the task's name does not give paths inside the allocation directory */
    static TaskPaths of(AllocDirs dirs, String task) throws UnsafePathException {
        Path dir = dirs.task(task);
        Path logs = dirs.logs();
        // what AllocDirs.log checks, without checking the task's name again for each stream
        return new TaskPaths(dir, dir.resolve("local"), dir.resolve("secrets"),
                AllocDirs.child(logs, task + ".stdout.0", "log file of task"),
                AllocDirs.child(logs, task + ".stderr.0", "log file of task"));
    }
}
