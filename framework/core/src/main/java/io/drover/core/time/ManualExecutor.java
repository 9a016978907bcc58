package io.drover.core.time;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/**
 * An executor whose actions run only when its owner drains it, on the owner's thread: with the TCK's {@code VirtualTimers},
 * the engine of tests and of the user test kit runs deterministically on one thread. {@link #execute} may be called
 * from any thread.
 */
public final class ManualExecutor implements Executor {
    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();

    @Override
    public synchronized void execute(Runnable command) {
        queue.add(command);
    }

    /** Runs queued actions (and those they queue) until none is left; returns how many ran. */
    public int drain() {
        int n = 0;
        while (true) {
            Runnable next;
            synchronized (this) {
                next = queue.poll();
            }
            if (next == null) {
                return n;
            }
            next.run();
            n++;
        }
    }
}
