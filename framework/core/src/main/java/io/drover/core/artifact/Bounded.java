package io.drover.core.artifact;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Instant;

/** Copies a stream within a byte budget and a deadline. Blocking, interruptible between reads. */
final class Bounded {
    private final long maxBytes;
    private final Instant deadline;
    private long used;

    Bounded(long maxBytes, Instant deadline) {
        this.maxBytes = maxBytes;
        this.deadline = deadline;
    }

    long copy(InputStream in, OutputStream out, String what) throws IOException, ArtifactException,
            InterruptedException {
        byte[] buf = new byte[64 * 1024];
        long n = 0;
        int r;
        while ((r = in.read(buf)) >= 0) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            used += r;
            n += r;
            if (used > maxBytes) {
                throw new ArtifactException(what + " is larger than the limit of " + (maxBytes >> 20) + " MiB");
            }
            if (Instant.now().isAfter(deadline)) {
                throw new ArtifactException(what + " took longer than the artifact time limit");
            }
            out.write(buf, 0, r);
        }
        return n;
    }
}
