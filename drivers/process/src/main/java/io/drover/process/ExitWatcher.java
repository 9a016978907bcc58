package io.drover.process;

import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import jnr.ffi.Pointer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One thread that waits for every watched descriptor at once with {@code epoll}: pidfds become readable when
 * their process exits, so one thread serves any number of tasks (no thread per process, never
 * {@code waitpid(-1)}). It also runs deadline actions (tree-kill verification), so the whole of process
 * supervision costs one thread.
 *
 * <p>{@link #watch} and {@link #schedule} may be called from any thread; the callbacks run on the watcher thread,
 * one at a time, and must not block. A callback that throws is logged and does not stop the loop.
 */
final class ExitWatcher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ExitWatcher.class);
    private static final int MAX_EVENTS = 64;
    private static final long WAKE_TOKEN = 0;

    /** Runs on the watcher thread when the descriptor is readable. */
    interface Callback {
        void readable(long token);
    }

    private record Deadline(long atNanos, long seq, Runnable action) {}

    private final Native nat;
    private final int epfd;
    private final int wakeFd;
    private final Thread thread;
    private final Map<Long, Callback> callbacks = new ConcurrentHashMap<>();
    private final AtomicLong tokens = new AtomicLong(WAKE_TOKEN);
    /**
     * Deadlines handed over by {@link #schedule} and {@link #scheduleQuietly} from any thread, lock-free: the timer
     * thread's SIGKILL burst adds one per kill and must never wait for this thread. A shared monitor here made a
     * due kill wait 90 ms for the watcher thread, which held it while descheduled on a saturated machine (JFR,
     * issue 18, docs/performance.md). Moved into {@link #deadlines} by the watcher thread alone.
     */
    private final ConcurrentLinkedQueue<Deadline> incoming = new ConcurrentLinkedQueue<>();
    /** Watcher thread only. */
    private final PriorityQueue<Deadline> deadlines = new PriorityQueue<>(
            (a, b) -> a.atNanos != b.atNanos ? Long.compare(a.atNanos, b.atNanos) : Long.compare(a.seq, b.seq));
    private volatile boolean closed;

    ExitWatcher(Native nat, String threadName) {
        this.nat = nat;
        epfd = nat.libc.epoll_create1(Native.EPOLL_CLOEXEC);
        if (epfd < 0) {
            throw new IllegalStateException("epoll_create1: " + nat.strerror(nat.errno()));
        }
        wakeFd = nat.libc.eventfd(0, Native.EFD_CLOEXEC | Native.EFD_NONBLOCK);
        if (wakeFd < 0) {
            throw new IllegalStateException("eventfd: " + nat.strerror(nat.errno()));
        }
        ctl(Native.EPOLL_CTL_ADD, wakeFd, WAKE_TOKEN);
        thread = new Thread(this::loop, threadName);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Watches {@code fd} for readability until {@link #unwatch}; the callback gets the returned token.
     *
     * @throws IllegalStateException when epoll refuses the descriptor
     */
    long watch(int fd, Callback callback) {
        long token = newToken();
        watch(token, fd, callback);
        return token;
    }

    /** A token for {@link #watch(long, int, Callback)}, so that the caller can publish it before any callback runs. */
    long newToken() {
        return tokens.incrementAndGet();
    }

    /**
     * As {@link #watch(int, Callback)}, with a token from {@link #newToken()}.
     *
     * @throws IllegalStateException when epoll refuses the descriptor
     */
    void watch(long token, int fd, Callback callback) {
        callbacks.put(token, callback);
        try {
            ctl(Native.EPOLL_CTL_ADD, fd, token);
        } catch (IllegalStateException e) {
            callbacks.remove(token);
            throw e;
        }
    }

    /** Stops watching; the caller then closes {@code fd}. Idempotent. */
    void unwatch(long token, int fd) {
        if (callbacks.remove(token) != null) {
            nat.libc.epoll_ctl(epfd, Native.EPOLL_CTL_DEL, fd, null);
        }
    }

    /** The longest the watcher waits without a due deadline: {@link #scheduleQuietly} relies on it. */
    static final int IDLE_WAIT_MILLIS = 1000;

    /** Runs {@code action} on the watcher thread once {@code System.nanoTime()} reaches {@code atNanos}. */
    void schedule(long atNanos, Runnable action) {
        incoming.add(new Deadline(atNanos, tokens.incrementAndGet(), action));
        wake();
    }

    /**
     * As {@link #schedule}, without waking the watcher thread: for a deadline far enough ahead (at least
     * {@value #IDLE_WAIT_MILLIS} ms), so that a caller on a kill's critical path (the timer thread, 100 kills in a
     * burst) makes no cross-thread wake-up. The watcher sees it at its next wake-up, at most {@value
     * #IDLE_WAIT_MILLIS} ms later, and then waits for it.
     */
    void scheduleQuietly(long atNanos, Runnable action) {
        incoming.add(new Deadline(atNanos, tokens.incrementAndGet(), action));
    }

    boolean onWatcherThread() {
        return Thread.currentThread() == thread;
    }

    private void ctl(int op, int fd, long token) {
        Pointer event = nat.allocate(Native.EPOLL_EVENT_SIZE);
        event.putInt(0, Native.EPOLLIN);
        event.putLong(Native.EPOLL_DATA_OFFSET, token);
        if (nat.libc.epoll_ctl(epfd, op, fd, event) != 0) {
            throw new IllegalStateException("epoll_ctl: " + nat.strerror(nat.errno()));
        }
    }

    private void wake() {
        Pointer one = nat.allocate(Long.BYTES);
        one.putLong(0, 1);
        nat.libc.write(wakeFd, one, Long.BYTES);
    }

    private void loop() {
        ThreadNice.raiseCallingThread(nat, ThreadNice.RAISED); // as root: exits are seen first on a busy machine
        Pointer events = nat.allocate(MAX_EVENTS * Native.EPOLL_EVENT_SIZE);
        Pointer drain = nat.allocate(Long.BYTES);
        while (!closed) {
            int n = nat.libc.epoll_wait(epfd, events, MAX_EVENTS, timeoutMillis());
            if (n < 0) {
                int errno = nat.errno();
                if (errno != Native.EINTR) {
                    LOG.error("epoll_wait failed: {}; process exits are no longer watched", nat.strerror(errno));
                    return;
                }
                continue;
            }
            for (int i = 0; i < n; i++) {
                long token = events.getLong((long) i * Native.EPOLL_EVENT_SIZE + Native.EPOLL_DATA_OFFSET);
                if (token == WAKE_TOKEN) {
                    nat.libc.read(wakeFd, drain, Long.BYTES);
                    continue;
                }
                Callback callback = callbacks.get(token);
                if (callback != null) {
                    run(() -> callback.readable(token));
                }
            }
            runDueDeadlines();
        }
    }

    /** Watcher thread: takes the deadlines handed over since the last call. */
    private void takeIncoming() {
        for (Deadline d = incoming.poll(); d != null; d = incoming.poll()) {
            deadlines.add(d);
        }
    }

    private int timeoutMillis() {
        takeIncoming();
        Deadline next = deadlines.peek();
        if (next == null) {
            return IDLE_WAIT_MILLIS; // a deadline added quietly meanwhile is seen by then
        }
        long wait = next.atNanos - System.nanoTime();
        return wait <= 0 ? 0 : (int) Math.min(IDLE_WAIT_MILLIS, (wait + 999_999) / 1_000_000);
    }

    private void runDueDeadlines() {
        while (true) {
            takeIncoming(); // an action may schedule another, due at once
            Deadline next = deadlines.peek();
            if (next == null || next.atNanos - System.nanoTime() > 0) {
                return;
            }
            run(deadlines.poll().action);
        }
    }

    private static void run(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException | Error e) {
            LOG.error("process watcher callback failed", e);
        }
    }

    /**
     * Stops the thread and closes the epoll instance; watched descriptors stay open (their owners close them).
     * Idempotent. Waits at most a second for the thread.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        wake();
        try {
            thread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        nat.libc.close(epfd);
        nat.libc.close(wakeFd);
    }
}
