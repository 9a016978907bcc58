package io.drover.core.engine;

import java.util.List;

/**
 * The one place where a task's prestart hooks are assembled, in the order they run:
 * <ol>
 * <li>{@link NetworkHook} — the allocation's ports were had (else Setup Failure);
 * <li>{@link TaskDirHook} — the task directory (first run);
 * <li>{@link TaskEnvHook} — runtime variables, the task's env, the interpolated driver config;
 * <li>{@link VolumeHook} — the task's host volume mounts, for the driver to mount (else Task hook failed);
 * <li>{@link IdentityHook} — the task's workload identities, signed; their env added, their files written on the
 * {@link HookPool};
 * <li>{@link DispatchPayloadHook} — a dispatched job's payload, written on the {@link HookPool} (once);
 * <li>{@link ArtifactHook} — the task's artifacts, fetched on the {@link HookPool} (until fetched once);
 * <li>{@link TemplateHook} — the task's templates, rendered on the {@link HookPool} (once), their env added; then watched for changes ({@link TemplateWatch}).
 * </ol>
 * Then the runner waits for the Task Setup event to be durable (first run) and asks the driver to start.
 */
final class TaskHooks {
    private TaskHooks() {}

    /** @param task what the template hook's re-renders act on (change_mode restart, signal) */
    static List<TaskHook> prestart(TaskRunnerHost host, TemplateHook.Task task) {
        return List.of(new NetworkHook(host), new TaskDirHook(host.dirs()), new TaskEnvHook(host),
                new VolumeHook(host), new IdentityHook(host), new DispatchPayloadHook(host), new ArtifactHook(host),
                new TemplateHook(host, task));
    }

    static String describe(Throwable t) {
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }
}
