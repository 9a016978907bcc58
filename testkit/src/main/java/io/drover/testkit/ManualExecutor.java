package io.drover.testkit;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/** An executor whose actions run only when the kit drains it, on the test's thread. */
final class ManualExecutor implements Executor {
    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();

    @Override
    public synchronized void execute(Runnable command) {
        queue.add(command);
    }

    /** Runs queued actions (and those they queue) until none is left; returns how many ran. */
    int drain() {
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
