package io.drover.cli.run;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGINT (Ctrl-C) and SIGTERM while {@code drover run} works, taken from the JVM: they no longer start the JVM's
 * shutdown, so the command's own thread stops the allocations, prints their status, deletes its data dir and
 * returns its exit code. (Under the JVM's default handling the shutdown hooks raced that thread, and the JVM halted
 * when they returned, before it printed anything.) {@link #first()} completes with 128 + the signal's number on
 * the first of them, {@link #second()} on the next one. A signal the process ignores (a background job of a
 * non-interactive shell ignores SIGINT) stays ignored. {@link #close()} gives the JVM its handlers back.
 */
final class InterruptSignals implements AutoCloseable {
    private static final String[] SIGNALS = {"INT", "TERM"};

    private final CompletableFuture<Integer> first = new CompletableFuture<>();
    private final CompletableFuture<Integer> second = new CompletableFuture<>();
    private final AtomicInteger received = new AtomicInteger();
    private final Map<Signal, SignalHandler> previous = new LinkedHashMap<>();

    private InterruptSignals() {}

    static InterruptSignals install() {
        InterruptSignals s = new InterruptSignals();
        for (String name : SIGNALS) {
            Signal signal = new Signal(name);
            try {
                s.previous.put(signal, Signal.handle(signal, s::onSignal));
            } catch (IllegalArgumentException reserved) {
                // -Xrs, or the signal is the VM's: the JVM's shutdown hook (InterruptHook) still covers it
            }
        }
        return s;
    }

    /** On a JVM signal thread: the first signal, then the second; later ones change nothing. */
    private void onSignal(Signal signal) {
        int code = 128 + signal.getNumber();
        int n = received.incrementAndGet();
        if (n == 1) {
            first.complete(code);
        } else if (n == 2) {
            second.complete(code);
        }
    }

    /** Completes (on a signal thread) with the exit code 128 + signal number of the first SIGINT or SIGTERM. */
    CompletableFuture<Integer> first() {
        return first;
    }

    /** Completes (on a signal thread) on the second SIGINT or SIGTERM. */
    CompletableFuture<Integer> second() {
        return second;
    }

    @Override
    public void close() {
        previous.forEach((signal, handler) -> {
            try {
                Signal.handle(signal, handler);
            } catch (IllegalArgumentException e) {
                // cannot happen: it was ours to set
            }
        });
        previous.clear();
    }
}
