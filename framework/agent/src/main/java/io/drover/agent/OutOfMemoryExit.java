package io.drover.agent;

import java.nio.charset.StandardCharsets;

/**
 * Ends the agent's JVM with exit code 1 when any thread dies of an {@link OutOfMemoryError}. Without it an agent
 * whose heap ran out kept running with dead threads (the state store's writer, the main thread): it neither served
 * nor exited, and a SIGTERM could not stop it. The JVM halts at once (no shutdown hooks: they need memory and
 * may wait for the dead threads); the state on disk stays consistent (group commits are atomic), and the next
 * agent re-attaches the tasks left running, as after a {@code kill -9}.
 *
 * <p>An OOM that a thread catches and survives is not seen here, with one exception: the HTTP server answers a
 * read-only request (GET, HEAD) that ran out of memory with a 500 and goes on (a transient allocation, freed with
 * the request; if the heap stays full, the next thread that dies of it ends the agent), but hands the OOM of a
 * write (a job registered, a stop) to this handler, which ends the agent: the write may have changed half of
 * what it meant to (some of a job's allocations submitted), and the next agent restores the durable state. Called on the dying thread; never allocates before the halt
 * but for the message, which is encoded in advance.
 */
final class OutOfMemoryExit implements Thread.UncaughtExceptionHandler {
    private static final byte[] LINE = ("drover agent: out of memory (Java heap exhausted): exiting with code 1; "
            + "tasks are left running for the next agent to re-attach\n").getBytes(StandardCharsets.UTF_8);

    private final Thread.UncaughtExceptionHandler previous;

    private OutOfMemoryExit(Thread.UncaughtExceptionHandler previous) {
        this.previous = previous;
    }

    /** Installs the handler as the JVM's default (keeps the previous one for other errors). Idempotent. */
    static synchronized void install() {
        Thread.UncaughtExceptionHandler current = Thread.getDefaultUncaughtExceptionHandler();
        if (!(current instanceof OutOfMemoryExit)) {
            Thread.setDefaultUncaughtExceptionHandler(new OutOfMemoryExit(current));
        }
    }

    @Override
    public void uncaughtException(Thread t, Throwable e) {
        if (outOfMemory(e)) {
            try {
                System.err.write(LINE);
                System.err.flush();
            } catch (Throwable ignored) {
                // halt anyway
            }
            Runtime.getRuntime().halt(1);
        }
        if (previous != null) {
            previous.uncaughtException(t, e);
        } else if (!(e instanceof ThreadDeath)) {
            System.err.print("Exception in thread \"" + t.getName() + "\" ");
            e.printStackTrace(System.err);
        }
    }

    private static boolean outOfMemory(Throwable e) {
        for (int depth = 0; e != null && depth < 16; depth++, e = e.getCause()) {
            if (e instanceof OutOfMemoryError) {
                return true;
            }
        }
        return false;
    }
}
