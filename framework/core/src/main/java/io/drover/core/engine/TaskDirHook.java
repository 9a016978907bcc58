package io.drover.core.engine;

import java.io.IOException;
import java.util.concurrent.CompletionStage;

/**
 * Builds the task's directory inside the allocation ({@link AllocDirs#createTask}: local/, secrets/, tmp/, no link
 * followed). First run only (a restart keeps the directory and what earlier runs left in it, as Nomad does).
 * Synchronous: a few mkdirs on the serial executor, as before the hooks existed. Not idempotent on its own; the
 * first-run check makes it run once per task.
 */
final class TaskDirHook implements TaskHook {
    private final AllocDirs dirs;

    TaskDirHook(AllocDirs dirs) {
        this.dirs = dirs;
    }

    @Override
    public String name() {
        return "task_dir";
    }

    @Override
    public CompletionStage<Void> prestart(TaskPrep prep) throws HookFailure {
        if (!prep.firstRun()) {
            return DONE;
        }
        try {
            dirs.createTask(prep.task().name());
        } catch (IOException | RuntimeException e) {
            // RuntimeException: an InvalidPathException or a bug; the task fails with an event, never wedges
            throw HookFailure.setup("failed to build task directory: " + TaskHooks.describe(e));
        }
        return DONE;
    }
}
