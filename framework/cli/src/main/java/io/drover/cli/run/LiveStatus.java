package io.drover.cli.run;

import io.drover.cli.format.StatusLine;
import io.drover.core.engine.AllocationListener;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Shows allocations' progress on stderr while {@code drover run} waits: on a terminal one line per allocation
 * rewritten in place; otherwise a plain line each time an allocation's client status changes, and for its tasks'
 * states at most {@link #MAX_DRAWS_PER_SECOND} times a second.
 *
 * <p>What it prints is bounded whatever the size of the jobs: each line is at most a screen wide (a long task
 * list is counted per state, {@link StatusLine}); changes are coalesced and drawn at most
 * {@link #MAX_DRAWS_PER_SECOND} times a second (only the latest state of each allocation is drawn, except that
 * the plain form skips no client status change: at most one line per status an allocation passes through); on a
 * terminal the block has at most {@link #MAX_BLOCK_LINES} lines, the allocations past them counted in its last
 * line.
 *
 * <p>{@link #onUpdate} is called on engine threads: it only records the snapshot under a short monitor (never
 * waits for the printer or the terminal); memory is one pending snapshot per allocation plus its status changes.
 * One daemon printer thread ({@code drover-live-status}) renders and writes. {@link #close()} prints everything
 * recorded so far, then stops the printer.
 */
public final class LiveStatus implements AllocationListener, AutoCloseable {
    /** Upper bound on draws (terminal redraws, or batches of plain lines) per second. */
    static final int MAX_DRAWS_PER_SECOND = 10;

    /** Upper bound on the lines of the block redrawn in place on a terminal. */
    static final int MAX_BLOCK_LINES = 20;

    private static final long DRAW_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1) / MAX_DRAWS_PER_SECOND;
    private static final long CLOSE_WAIT_MILLIS = 2_000;

    private final PrintStream err;
    private final boolean terminal;
    private final boolean fullIds;
    private final int width;
    private final Thread printer;

    private final Object lock = new Object();
    /** Snapshots whose client status differs from the one before, in arrival order. Guarded by lock. */
    private List<AllocationState> transitions = new ArrayList<>();
    /** The latest snapshot of each allocation newer than its last transition. Guarded by lock. */
    private Map<String, AllocationState> latest = new LinkedHashMap<>();
    /** The last client status recorded per allocation. Guarded by lock. */
    private final Map<String, ClientStatus> statuses = new HashMap<>();
    /** Guarded by lock. */
    private boolean closed;

    /** Last line rendered per allocation, in first-seen order. Printer thread only. */
    private final Map<String, String> lines = new LinkedHashMap<>();
    /** Client status per allocation, for the block's summary line. Printer thread only. */
    private final Map<String, ClientStatus> shown = new HashMap<>();
    private int drawn;

    /**
     * @param terminal whether {@code err} is a terminal that understands ANSI cursor movement
     * @param width terminal width in columns (0 when unknown: lines are kept to {@link StatusLine#DEFAULT_WIDTH})
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

    /** On an engine thread, in order per allocation: records the snapshot; never waits for the printer. */
    @Override
    public void onUpdate(AllocationState state) {
        synchronized (lock) {
            if (closed) {
                return;
            }
            if (statuses.put(state.id(), state.clientStatus()) != state.clientStatus()) {
                transitions.add(state);
                latest.remove(state.id());
            } else {
                latest.put(state.id(), state);
            }
            lock.notifyAll();
        }
    }

    private void printLoop() {
        long nextDraw = System.nanoTime();
        try {
            while (true) {
                List<AllocationState> batch = new ArrayList<>();
                boolean stop = await(nextDraw, batch);
                if (!batch.isEmpty()) {
                    draw(batch);
                    nextDraw = System.nanoTime() + DRAW_INTERVAL_NANOS;
                }
                if (stop) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Waits until something is recorded and the draw interval has passed (or until closed), then moves what is
     * recorded into {@code batch}: transitions in order, then the latest snapshots.
     *
     * @return whether the printer is to stop after drawing the batch
     */
    private boolean await(long nextDraw, List<AllocationState> batch) throws InterruptedException {
        synchronized (lock) {
            while (!closed) {
                if (nothingRecorded()) {
                    lock.wait();
                    continue;
                }
                long left = nextDraw - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                TimeUnit.NANOSECONDS.timedWait(lock, left);
            }
            batch.addAll(transitions);
            batch.addAll(latest.values());
            transitions = new ArrayList<>();
            latest = new LinkedHashMap<>();
            return closed;
        }
    }

    /** Under lock: whether nothing is recorded since the last batch. */
    private boolean nothingRecorded() {
        return transitions.isEmpty() && latest.isEmpty();
    }

    private void draw(List<AllocationState> batch) {
        boolean changed = false;
        for (AllocationState state : batch) {
            String line = StatusLine.of(state, fullIds, width);
            shown.put(state.id(), state.clientStatus());
            if (line.equals(lines.put(state.id(), line))) {
                continue;
            }
            changed = true;
            if (!terminal) {
                err.println(line);
            }
        }
        if (changed && terminal) {
            List<String> block = block();
            err.print(TerminalLines.redraw(drawn, block, width));
            drawn = block.size();
        }
        err.flush();
    }

    /** The lines redrawn in place: every allocation's, or the first ones and a line counting the rest. */
    private List<String> block() {
        List<String> all = List.copyOf(lines.values());
        if (all.size() <= MAX_BLOCK_LINES) {
            return all;
        }
        List<String> block = new ArrayList<>(all.subList(0, MAX_BLOCK_LINES - 1));
        Map<ClientStatus, Integer> rest = new java.util.EnumMap<>(ClientStatus.class);
        List<String> ids = List.copyOf(lines.keySet());
        for (String id : ids.subList(MAX_BLOCK_LINES - 1, ids.size())) {
            rest.merge(shown.get(id), 1, Integer::sum);
        }
        StringBuilder sb = new StringBuilder("... ").append(ids.size() - (MAX_BLOCK_LINES - 1))
                .append(" more allocations:");
        String sep = " ";
        for (Map.Entry<ClientStatus, Integer> e : rest.entrySet()) {
            sb.append(sep).append(e.getValue()).append(' ').append(e.getKey().wireName());
            sep = ", ";
        }
        block.add(sb.toString());
        return block;
    }

    /** Prints what is recorded, then stops the printer. Idempotent; waits at most two seconds. */
    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            lock.notifyAll();
        }
        try {
            printer.join(CLOSE_WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
