package io.drover.bench;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Before each bench: {@code sync}, so that a row does not pay for the page-cache writeback of the rows before it
 * (the lifecycle, gc and concurrent rows leave hundreds of MB of dirty pages; on 2026-12-01 the store row gave
 * 8,700 events/s right after the lifecycle row and 105,000-115,000 alone). Called on the suite's thread, between
 * benches; bounded to 2 minutes.
 */
final class DiskSettle {
    private DiskSettle() {}

    /** @return seconds spent, or -1 when {@code sync} could not be run (the bench runs anyway) */
    static double sync() {
        long t0 = System.nanoTime();
        try {
            Process p = new ProcessBuilder("sync").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(2, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                return -1;
            }
            return (System.nanoTime() - t0) / 1e9;
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
