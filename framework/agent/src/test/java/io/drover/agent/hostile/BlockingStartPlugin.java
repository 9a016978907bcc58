package io.drover.agent.hostile;

import java.util.concurrent.CountDownLatch;
import org.pf4j.Plugin;

/** A plugin class whose {@code start()} blocks until interrupted (a third party waiting on a dead license server). */
public final class BlockingStartPlugin extends Plugin {
    @Override
    public void start() {
        try {
            new CountDownLatch(1).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
