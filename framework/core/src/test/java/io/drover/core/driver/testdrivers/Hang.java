package io.drover.core.driver.testdrivers;

import java.util.concurrent.CountDownLatch;

/** Blocks the calling thread until it is interrupted: a plugin call that hangs, and ends only when abandoned. */
public final class Hang {
    private Hang() {}

    public static void untilInterrupted() {
        try {
            new CountDownLatch(1).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
