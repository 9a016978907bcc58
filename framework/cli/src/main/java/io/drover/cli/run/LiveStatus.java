package io.drover.cli.run;

import io.drover.cli.format.StatusLine;
import io.drover.core.engine.AllocationListener;
import io.drover.core.state.AllocationState;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Shows allocations' progress on stderr while {@code drover run} waits: on a terminal one line per allocation
 * rewritten in place; otherwise a plain line each time an allocation's client status or a task's state changes.
 *
 * <p>{@link #onUpdate} is called on engine threads and only enqueues the snapshot (never blocks); one daemon
 * printer thread renders. {@link #close()} prints everything enqueued so far, then stops the printer.
 */
public final class LiveStatus implements AllocationListener, AutoCloseable {
    private static final long CLOSE_WAIT_MILLIS = 2_000;

    private final PrintStream err;
    private final boolean terminal;
    private final boolean fullIds;
    private final int width;
    private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private final Object end = new Object();
    /** Last line rendered per allocation, in first-seen order. Printer thread only. */
    private final Map<String, String> lines = new LinkedHashMap<>();
    private final Thread printer;
    private int drawn;
    private volatile boolean closed;

    /**
     * @param terminal whether {@code err} is a terminal that understands ANSI cursor movement
     * @param width terminal width in columns (0 when unknown)
     */
    public LiveStatus(PrintStream err, boolean terminal, boolean fullIds, int width) {
        this.err = err;
        this.terminal = terminal;
        this.fullIds = fullIds;
        this.width = width;
        this.printer = new Thread(this::printLoop, "drover-live-status");
        printer.setDaemon(true);
        printer.start();
    }

    @Override
    public void onUpdate(AllocationState state) {
        if (!closed) {
            queue.offer(state);
        }
    }

    private void printLoop() {
        List<Object> batch = new ArrayList<>();
        try {
            while (true) {
                batch.add(queue.take());
                queue.drainTo(batch);
                boolean stop = false;
                boolean changed = false;
                for (Object item : batch) {
                    if (item == end) {
                        stop = true;
                    } else {
                        changed |= update((AllocationState) item);
                    }
                }
                batch.clear();
                if (changed && terminal) {
                    err.print(TerminalLines.redraw(drawn, List.copyOf(lines.values()), width));
                    drawn = lines.size();
                }
                err.flush();
                if (stop) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Records the allocation's new line; in plain mode prints it at once when it changed. */
    private boolean update(AllocationState state) {
        String line = StatusLine.of(state, fullIds);
        String before = lines.put(state.id(), line);
        if (line.equals(before)) {
            return false;
        }
        if (!terminal) {
            err.println(line);
        }
        return true;
    }

    /** Prints what is queued, then stops the printer. Idempotent; waits at most two seconds. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        queue.offer(end);
        try {
            printer.join(CLOSE_WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
