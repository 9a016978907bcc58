package io.drover.core.engine;

import io.drover.core.artifact.ArtifactException;
import io.drover.core.artifact.SafeFiles;
import io.drover.core.spec.DispatchPayload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Writes a dispatched job's payload to the task's {@code dispatch_payload { file }} inside its {@code local/}
 * directory before the first run (Nomad's {@code dispatch_payload} hook; nothing when the dispatch carried no
 * payload). On the {@link HookPool}, never on the serial executor; every directory on the way is created or
 * checked without following a link, and what sits at the file's place (a file or a link a task planted) is
 * replaced, never written through. A failure is a Setup Failure that fails the task.
 */
final class DispatchPayloadHook implements TaskHook {
    private final TaskRunnerHost host;
    /** Whether the payload is written (serial executor). */
    private boolean written;

    DispatchPayloadHook(TaskRunnerHost host) {
        this.host = host;
    }

    @Override
    public String name() {
        return "dispatch_payload";
    }

    @Override
    public CompletionStage<Void> prestart(TaskPrep prep) throws HookFailure {
        DispatchPayload payload = prep.task().runtime().dispatchPayload();
        if (written || payload == null || payload.payload() == null || payload.payload().isEmpty()) {
            return DONE;
        }
        Path local;
        try {
            local = host.dirs().task(prep.task().name()).resolve("local").normalize();
        } catch (UnsafePathException e) {
            throw HookFailure.setup("failed to write the dispatch payload: " + e.getMessage());
        }
        byte[] bytes = Base64.getDecoder().decode(payload.payload());
        CompletableFuture<Void> work = HookPool.submit(() -> write(local, payload.file(), bytes));
        return work.handleAsync((v, e) -> {
            if (e != null) {
                Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null
                        ? e.getCause() : e;
                throw new java.util.concurrent.CompletionException(HookFailure.setup(
                        "failed to write the dispatch payload: " + TaskHooks.describe(cause)));
            }
            written = true;
            return null;
        }, host.serial());
    }

    /** Writes {@code bytes} to {@code local/file}. Pool thread (blocking I/O). */
    static void write(Path local, String file, byte[] bytes) throws IOException, ArtifactException {
        Path dest = SafeFiles.inside(local, file, "dispatch_payload file");
        SafeFiles.mkdirs(local, dest.getParent());
        SafeFiles.clearFile(local, dest);
        Files.write(dest, bytes, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        Files.setPosixFilePermissions(dest, PosixFilePermissions.fromString("rw-r--r--"));
    }
}
