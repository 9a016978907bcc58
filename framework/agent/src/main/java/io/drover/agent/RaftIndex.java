package io.drover.agent;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's one monotonic index, as Nomad's Raft index: every change a client can see (a job registered or
 * stopped, an evaluation, an allocation's new state) takes the next value, and the API reports it in the
 * {@code X-Nomad-Index} header that blocking queries compare with. Values are unix microseconds made strictly
 * increasing (a hybrid logical clock: {@code max(last + 1, now)}), so the indexes of jobs and allocations can be
 * derived from the times their records keep ({@code SubmitTime}, {@code CreateTime}, {@code ModifyTime}) and are
 * the same after an agent restart.
 *
 * <p>Durable without a write per change: a high mark {@value #RESERVE_MICROS} µs (an hour) above the values
 * handed out is kept in {@code <data_dir>/raft-index} (written to a temporary file, fsynced, renamed); an agent
 * starts at the mark the file holds, so an index never goes back, across restarts, {@code kill -9} and a clock set
 * back alike. The next mark is written when half of the reserve is used, on {@code reserver} (blocking I/O, off
 * the caller's thread; about once per half hour of changes).
 *
 * <p>Thread-safe and non-blocking: {@link #next()} is called from engine threads (allocation listeners) and API
 * threads. {@code onChange} listeners run on the thread that took the value and must not block.
 */
public final class RaftIndex {
    private static final Logger LOG = LoggerFactory.getLogger(RaftIndex.class);

    static final long RESERVE_MICROS = 3_600_000_000L;
    static final String FILE = "raft-index";

    private final Path file;
    private final Executor reserver;
    private final AtomicLong value;
    private volatile long reserved;
    private final AtomicBoolean reserving = new AtomicBoolean();
    private final List<LongConsumer> listeners = new CopyOnWriteArrayList<>();

    private RaftIndex(Path file, Executor reserver, long start, long reserved) {
        this.file = file;
        this.reserver = reserver;
        this.value = new AtomicLong(start);
        this.reserved = reserved;
    }

    /**
     * Reads the reserved high mark in {@code dataDir} and reserves the first block above it (blocking: agent
     * start only).
     *
     * @throws IOException when the file cannot be read or written; its line names the file
     */
    public static RaftIndex open(Path dataDir, Executor reserver) throws IOException {
        Path file = dataDir.resolve(FILE);
        long high = 0;
        if (Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            String text = Files.readString(file, StandardCharsets.US_ASCII).trim();
            try {
                high = Long.parseLong(text);
            } catch (NumberFormatException e) {
                throw new IOException(file + ": not an index: \"" + text + "\"");
            }
            if (high < 0) {
                throw new IOException(file + ": negative index " + high);
            }
        }
        long start = Math.max(high, nowMicros()); // never 0, as Nomad's: index=0 means "do not block"
        long reserved = start + RESERVE_MICROS;
        write(file, reserved);
        return new RaftIndex(file, reserver, start, reserved);
    }

    /** An index that keeps no file (tests, and registries built without an agent). */
    public static RaftIndex inMemory() {
        return new RaftIndex(null, Runnable::run, nowMicros(), Long.MAX_VALUE);
    }

    /** The last value handed out (at start: the high mark, above every index an earlier agent gave). */
    public long current() {
        return value.get();
    }

    /** Takes the next value; tells the listeners. */
    public long next() {
        long v = take();
        publish(v);
        return v;
    }

    /** Takes the next value without telling the listeners yet: the caller publishes once its change is visible. */
    public long take() {
        long now = nowMicros();
        long v = value.updateAndGet(cur -> Math.max(cur + 1, now));
        if (v > reserved - RESERVE_MICROS / 2 && reserving.compareAndSet(false, true)) {
            reserver.execute(this::reserveNext);
        }
        return v;
    }

    /** Tells the listeners that the change that took {@code v} is visible. */
    public void publish(long v) {
        for (LongConsumer l : listeners) {
            l.accept(v);
        }
    }

    /** The index a record's time stands for (unix nanos to micros), for indexes derived from recorded times. */
    public static long ofNanos(long unixNanos) {
        return Math.max(1, unixNanos / 1000);
    }

    private static long nowMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }

    /** @param listener called with each new value on the thread that took it; must not block */
    public void onChange(LongConsumer listener) {
        listeners.add(listener);
    }

    private void reserveNext() {
        try {
            long next = Math.max(reserved, value.get()) + RESERVE_MICROS;
            write(file, next);
            reserved = next;
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not reserve the next block of indexes in {}: {}", file, e.toString());
        } finally {
            reserving.set(false);
        }
    }

    private static void write(Path file, long reserved) throws IOException {
        Path tmp = file.resolveSibling(FILE + ".tmp");
        Files.deleteIfExists(tmp);
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap((reserved + "\n").getBytes(StandardCharsets.US_ASCII)));
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
