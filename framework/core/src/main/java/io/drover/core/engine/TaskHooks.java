package io.drover.core.engine;

import java.util.List;

/**
 * The one place where a task's prestart hooks are assembled, in the order they run:
 * <ol>
 * <li>{@link NetworkHook} — the allocation's ports were had (else Setup Failure);
 * <li>{@link TaskDirHook} — the task directory (first run);
 * <li>{@link TaskEnvHook} — runtime variables, the task's env, the interpolated driver config;
 * <li>{@link DispatchPayloadHook} — a dispatched job's payload, written on the {@link HookPool} (once);
 * <li>{@link ArtifactHook} — the task's artifacts, fetched on the {@link HookPool} (until fetched once);
 * <li>{@link TemplateHook} — the task's templates, rendered on the {@link HookPool} (once), their env added.
 * </ol>
 * Then the runner waits for the Task Setup event to be durable (first run) and asks the driver to start.
 */
final class TaskHooks {
    private TaskHooks() {}

    static List<TaskHook> prestart(TaskRunnerHost host) {
        return List.of(new NetworkHook(host), new TaskDirHook(host.dirs()), new TaskEnvHook(host),
                new DispatchPayloadHook(host), new ArtifactHook(host), new TemplateHook(host));
    }

    static String describe(Throwable t) {
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }
}
