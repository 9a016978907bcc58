package io.drover.core.engine;

import io.drover.core.artifact.ArtifactException;
import io.drover.core.artifact.ClientPath;
import io.drover.core.event.TaskEvents;
import io.drover.core.spec.Artifact;
import io.drover.core.time.Nanos;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Fetches the task's {@code artifact}s into its directory before the run, as Nomad's artifact hook: a
 * {@code Downloading Artifacts} event, then the downloads one after another on the {@link HookPool} (never on the
 * serial executor); a failure is a {@code Failed Artifact Download} event and a recoverable prestart error (the
 * restart policy applies, as in Nomad). Runs before every run until the artifacts were all fetched once; a
 * restart after a success fetches nothing again. {@code ${...}} in a source and a destination is resolved against
 * the run's variables ({@link TaskPrep#vars()}); the destination then lands where {@link ClientPath} says (the
 * task directory or the shared alloc directory, Nomad's rule), an escape a Failed Artifact Download that is not
 * recoverable. A source Nomad accepts but this node cannot fetch (a cloud store, a remote git repository:
 * {@link io.drover.core.artifact.RemoteSources}) is a Failed Artifact Download naming what it needs, not recoverable
 * (no restart could fetch it), before anything is downloaded. A stop cancels the download (the pool thread is
 * interrupted).
 */
final class ArtifactHook implements TaskHook {
    private final TaskRunnerHost host;
    /** Set on the serial executor once every artifact was fetched. */
    private boolean fetched;

    ArtifactHook(TaskRunnerHost host) {
        this.host = host;
    }

    @Override
    public String name() {
        return "artifacts";
    }

    @Override
    public CompletionStage<Void> prestart(TaskPrep prep) throws HookFailure {
        List<Artifact> artifacts = prep.task().runtime().artifacts();
        if (artifacts.isEmpty() || fetched) {
            return DONE;
        }
        Path taskDir;
        try {
            taskDir = host.dirs().task(prep.task().name());
        } catch (UnsafePathException e) {
            throw HookFailure.setup("failed to prepare the task: " + e.getMessage());
        }
        prep.record(TaskEvents.downloadingArtifacts(Nanos.of(host.timers().now())));
        Interpolator vars = new Interpolator(prep.vars());
        List<String> sources = artifacts.stream().map(a -> vars.apply(a.source())).toList();
        for (String source : sources) {
            java.util.Optional<String> remote = io.drover.core.artifact.RemoteSources.missing(source);
            if (remote.isPresent()) { // it would fail again at every restart: the task fails now
                String message = remote.get();
                throw new HookFailure(message, t -> TaskEvents.artifactDownloadFailed(t, message), false);
            }
        }
        ClientPath paths = new ClientPath(taskDir, host.dirs().shared());
        List<ClientPath.Target> targets = new java.util.ArrayList<>();
        for (Artifact a : artifacts) {
            java.util.Optional<ClientPath.Target> to = paths.resolve(vars.apply(a.destination()),
                    ClientPath.Kind.DESTINATION);
            if (to.isEmpty()) {
                String message = ClientPath.escapes("artifact destination", a.destination());
                throw new HookFailure(message, t -> TaskEvents.artifactDownloadFailed(t, message), false);
            }
            targets.add(to.get());
        }
        CompletableFuture<Void> work = HookPool.submit(() -> {
            for (int i = 0; i < artifacts.size(); i++) {
                HookPool.artifacts().fetch(artifacts.get(i), sources.get(i), taskDir, targets.get(i));
            }
        });
        CompletableFuture<Void> result = work.handle((v, e) -> {
            if (e == null) {
                return null;
            }
            Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null
                    ? e.getCause() : e;
            String message = cause instanceof ArtifactException ? cause.getMessage()
                    : "failed to download artifact: " + TaskHooks.describe(cause);
            throw new java.util.concurrent.CompletionException(new HookFailure(message,
                    t -> TaskEvents.artifactDownloadFailed(t, message), true));
        }).thenRun(() -> host.serial().execute(() -> fetched = true));
        result.whenComplete((v, e) -> {
            if (result.isCancelled()) {
                work.cancel(true); // a stop: interrupt the download
            }
        });
        return result;
    }
}
