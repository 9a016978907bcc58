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
 * stopped, an evaluation, an allocation's new state) takes the next value, and the API reports them as
 * {@code CreateIndex}, {@code ModifyIndex}, {@code JobModifyIndex}, {@code AllocModifyIndex} and the
 * {@code X-Nomad-Index} header that blocking queries compare with.
 *
 * <p>Durable without a write per change: values are reserved in blocks of {@value #BLOCK}. The highest reserved
 * value is kept in {@code <data_dir>/raft-index} (written to a temporary file, fsynced, renamed); an agent starts
 * counting above the value the file holds, so an index is never handed out twice, across restarts and
 * {@code kill -9} alike (an agent that dies skips what is left of its block). The next block is reserved when
 * half of the current one is used, on {@code reserver} (blocking I/O, off the caller's thread); a caller that
 * outruns that write (half a million changes during one fsync) still gets unique values in this run.
 *
 * <p>Thread-safe and non-blocking: {@link #next()} is called from engine threads (allocation listeners) and API
 * threads. {@code onChange} listeners run on the thread that took the value and must not block.
 */
public final class RaftIndex {
    private static final Logger LOG = LoggerFactory.getLogger(RaftIndex.class);

    static final long BLOCK = 1L << 20;
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
        long start = Math.max(1, high); // never 0, as Nomad's indexes: index=0 means "do not block"
        long reserved = start + BLOCK;
        write(file, reserved);
        return new RaftIndex(file, reserver, start, reserved);
    }

    /** The last value handed out (1 on a new data_dir). */
    public long current() {
        return value.get();
    }

    /** Takes the next value; tells the listeners. */
    public long next() {
        long v = value.incrementAndGet();
        if (v > reserved - BLOCK / 2 && reserving.compareAndSet(false, true)) {
            reserver.execute(this::reserveNext);
        }
        for (LongConsumer l : listeners) {
            l.accept(v);
        }
        return v;
    }

    /** @param listener called with each new value on the thread that took it; must not block */
    public void onChange(LongConsumer listener) {
        listeners.add(listener);
    }

    private void reserveNext() {
        try {
            long next = Math.max(reserved, value.get()) + BLOCK;
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
