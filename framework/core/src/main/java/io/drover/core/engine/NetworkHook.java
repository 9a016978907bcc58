package io.drover.core.engine;

import java.util.concurrent.CompletionStage;

/**
 * Fails the run, before anything starts, when the allocation could not get its group network's ports (a static
 * port another allocation or a host process holds, a dynamic range used up): Setup Failure with the one-line
 * reason. The ports themselves are allocated per allocation by the engine ({@link PortAllocator}) and reach the
 * task as Nomad's variables through {@link RuntimeEnv#ports}. Every run; synchronous; idempotent.
 */
final class NetworkHook implements TaskHook {
    private final TaskRunnerHost host;

    NetworkHook(TaskRunnerHost host) {
        this.host = host;
    }

    @Override
    public String name() {
        return "network";
    }

    @Override
    public CompletionStage<Void> prestart(TaskPrep prep) throws HookFailure {
        String problem = host.networkProblem();
        if (problem != null) {
            throw HookFailure.setup(problem);
        }
        return DONE;
    }
}
