package io.drover.process;

import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread that writes every task's output to disk, so that a slow disk delays only this thread — never
 * the watcher (which keeps reading the pipes) nor a task. Runs submitted actions in submission order.
 * {@link #submit} from any thread; actions must not throw (they are logged) and run on the writer thread.
 */
final class LogWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LogWriter.class);
    private static final Runnable STOP = () -> {};

    private final LinkedBlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();
    private final Thread thread;

    LogWriter(String threadName) {
        thread = new Thread(this::loop, threadName);
        thread.setDaemon(true);
        thread.start();
    }

    void submit(Runnable action) {
        queue.add(action);
    }

    private void loop() {
        while (true) {
            Runnable action;
            try {
                action = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            if (action == STOP) {
                return;
            }
            try {
                action.run();
            } catch (RuntimeException e) {
                LOG.error("log writer action failed", e);
            }
        }
    }

    /** Runs what was submitted so far, then stops the thread (waits at most a second). Idempotent. */
    @Override
    public void close() {
        queue.add(STOP);
        try {
            thread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
