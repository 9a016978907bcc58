package io.drover.process;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import jnr.ffi.Pointer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read end of one task output pipe (stdout or stderr). The watcher thread reads it when epoll says it is
 * readable (non-blocking, one read per wake-up, level-triggered) and hands the bytes to the {@link LogWriter},
 * which appends them to a {@link RotatingFile}. At most {@link LogRotation#bufferBytes()} wait for the disk:
 * a read that does not fit is dropped and counted. At end of file (every writer of the pipe exited) the pipe
 * is closed and the file too.
 */
final class OutputPipe {
    private static final Logger LOG = LoggerFactory.getLogger(OutputPipe.class);
    static final int READ_SIZE = 64 * 1024;

    private final ProcessSupervisor owner;
    private final ExitWatcher watcher;
    private final LogWriter writer;
    private final int fd;
    private final RotatingFile file;
    private final int budget;
    private final AtomicLong pending = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private volatile long token;
    private boolean closed; // watcher thread only
    private long droppedByDisk; // log-writer thread only: bytes dropped since the disk last refused a write

    OutputPipe(ProcessSupervisor owner, ExitWatcher watcher, LogWriter writer, int fd, RotatingFile file,
            int budget) {
        this.owner = owner;
        this.watcher = watcher;
        this.writer = writer;
        this.fd = fd;
        this.file = file;
        this.budget = budget;
    }

    /**
     * Creates the current file (on the caller's thread, so that it exists once the task is started, as one
     * opened by the spawn would) and starts watching the pipe.
     */
    void register() {
        openFile();
        // the token is published before the first read can run, so no monitor is held across epoll_ctl: an engine
        // thread descheduled there kept the watcher thread, which reaps every task, waiting up to 96 ms (JFR)
        long t = watcher.newToken();
        token = t;
        watcher.watch(t, fd, x -> readOnce());
    }

    private void openFile() {
        try {
            file.open();
        } catch (IOException e) {
            LOG.warn("cannot open {}: {}", file.current(), e.toString());
        }
    }

    long dropped() {
        return dropped.get();
    }

    /** Watcher thread: one read. */
    private synchronized void readOnce() {
        read(owner.readBuffer());
    }

    /** Watcher thread: reads until the pipe is empty (EAGAIN) or closed; used when the task exited. */
    synchronized void drain() {
        Pointer buf = owner.readBuffer();
        while (!closed && read(buf) > 0) {
            // keep reading
        }
    }

    /** @return bytes read; 0 at end of file or when nothing is available */
    private int read(Pointer buf) {
        if (closed) {
            return 0;
        }
        long n = owner.read(fd, buf, READ_SIZE);
        if (n > 0) {
            int len = (int) n;
            if (pending.addAndGet(len) > budget) {
                pending.addAndGet(-len);
                dropped.addAndGet(len);
                return len;
            }
            byte[] data = new byte[len];
            buf.get(0, data, 0, len);
            writer.submit(() -> write(data));
            return len;
        }
        if (n < 0 && owner.lastErrno() == Native.EAGAIN) {
            return 0;
        }
        // end of file (or a read error): nothing will come any more
        closed = true;
        watcher.unwatch(token, fd);
        owner.closeFd(fd);
        writer.submit(this::closeFile);
        return 0;
    }

    /**
     * Log-writer thread. A disk that refuses writes (full, read-only) drops the output and counts it: one WARN
     * when it starts, one when output is written again, so a task printing all day on a full disk does not flood
     * the agent's log, and the writer thread goes on for every other task.
     */
    private void write(byte[] data) {
        try {
            file.write(data, 0, data.length);
            if (droppedByDisk > 0) {
                LOG.warn("task output written to {} again; {} bytes were dropped while the disk refused them",
                        file.current(), droppedByDisk);
                droppedByDisk = 0;
            }
        } catch (IOException e) {
            dropped.addAndGet(data.length);
            if (droppedByDisk == 0) {
                LOG.warn("cannot write task output to {}: {}; dropping it (counted) until the disk takes writes",
                        file.current(), e.getMessage());
            }
            droppedByDisk += data.length;
        } finally {
            pending.addAndGet(-data.length); // after the write: 0 pending means all read bytes are on disk
        }
    }

    /** Whether every byte read so far is written (or dropped). Any thread. */
    boolean flushed() {
        return pending.get() == 0;
    }

    private void closeFile() {
        try {
            file.close();
        } catch (IOException e) {
            LOG.warn("cannot close {}: {}", file.current(), e.toString());
        }
        if (dropped.get() > 0) {
            LOG.warn("{}: {} bytes of task output dropped (disk too slow, full or read-only)", file.current(),
                    dropped.get());
        }
    }
}
