package io.drover.core.engine;

import io.drover.core.event.TaskEvents;
import io.drover.driver.api.TaskDriver;
import java.util.concurrent.CompletionStage;

/**
 * Nomad's {@code volumes} task hook: resolves the task's {@code volume_mount}s of host volumes against the node's
 * ({@link HostVolumeMounts}) and hands them to the driver through {@link TaskPrep#mounts}; the driver mounts them.
 * Fails the run, before anything starts, with Nomad's {@code Task hook failed} event ("volumes: ...", not
 * recoverable) when a host volume the group asks is not on this node any more, or when the task's driver mounts
 * nothing ({@code task driver "raw_exec" for "t" does not support host volumes}). Every run (after the env, whose
 * variables a destination may use); synchronous; idempotent.
 */
final class VolumeHook implements TaskHook {
    private final TaskRunnerHost host;

    VolumeHook(TaskRunnerHost host) {
        this.host = host;
    }

    @Override
    public String name() {
        return "volumes";
    }

    @Override
    public CompletionStage<Void> prestart(TaskPrep prep) throws HookFailure {
        if (prep.task().runtime().volumeMounts().isEmpty()) {
            return DONE;
        }
        Interpolator vars = new Interpolator(prep.vars());
        HostVolumeMounts.Result r = host.volumeMounts(prep.task(), vars::apply);
        if (r.problem() != null) {
            throw failed(r.problem());
        }
        if (!r.mounts().isEmpty()) {
            boolean supported = host.driver(prep.task().driver()).map(VolumeHook::mounts).orElse(true);
            if (!supported) { // Nomad's words (taskrunner/volume_hook.go)
                throw failed("task driver \"" + prep.task().driver() + "\" for \"" + prep.task().name()
                        + "\" does not support host volumes");
            }
        }
        prep.mounts(r.mounts());
        return DONE;
    }

    private static boolean mounts(TaskDriver d) {
        try {
            return d.capabilities().mountConfigs();
        } catch (RuntimeException e) {
            return false;
        }
    }

    private HookFailure failed(String problem) {
        String message = name() + ": " + problem;
        return new HookFailure(message, t -> TaskEvents.taskHookFailed(t, message), false);
    }
}
