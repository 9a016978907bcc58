package io.drover.agent.http;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connection limits: counts open connections in all and per remote IP as they open, and closes one over
 * a limit at once; and closes a connection that takes longer than {@code header_timeout} to send a request.
 * Listener methods run on Jetty's selector threads, {@link #sweep} on the timer; thread-safe.
 */
final class ConnectionCaps implements Connection.Listener {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionCaps.class);
    private final int maxConns;
    private final int maxPerClient; // 0: none
    private final long headerTimeoutNanos;
    private final AtomicInteger open = new AtomicInteger();
    private final Map<InetAddress, AtomicInteger> perClient = new ConcurrentHashMap<>();
    private final Map<Connection, Open> counted = new ConcurrentHashMap<>();

    /** A counted open connection: its client, and the request being read (its count, when first seen). */
    private static final class Open {
        final InetAddress ip;
        long messages = -1; // timer thread only
        long since; // timer thread only
        /** A bodiless request was handed to a handler and its exchange is not complete: sent whole. */
        volatile boolean answering;

        Open(InetAddress ip) {
            this.ip = ip;
        }
    }

    ConnectionCaps(int maxConns, int maxPerClient, long headerTimeoutNanos) {
        this.maxConns = maxConns;
        this.maxPerClient = maxPerClient;
        this.headerTimeoutNanos = headerTimeoutNanos;
    }

    private static InetAddress client(Connection c) {
        SocketAddress a = c.getEndPoint().getRemoteSocketAddress();
        return a instanceof InetSocketAddress i ? i.getAddress() : null;
    }

    @Override
    public void onOpened(Connection c) {
        int total = open.incrementAndGet();
        InetAddress ip = client(c);
        int mine = ip == null ? 0 : perClient.computeIfAbsent(ip, k -> new AtomicInteger()).incrementAndGet();
        if (total > maxConns || (maxPerClient > 0 && mine > maxPerClient)) {
            release(ip); // not counted: onClosed, if Jetty calls it for this one, finds it absent
            LOG.debug("connection from {} closed as it opened: {} open in all, {} from it", ip, total, mine);
            c.getEndPoint().close();
            return;
        }
        counted.put(c, new Open(ip)); // its address now: once closed, the end point has none
    }

    @Override
    public void onClosed(Connection c) {
        Open o = counted.remove(c);
        if (o != null) {
            release(o.ip);
        }
    }

    private void release(InetAddress ip) {
        open.decrementAndGet();
        if (ip != null) {
            perClient.computeIfPresent(ip, (k, n) -> n.decrementAndGet() <= 0 ? null : n);
        }
    }

    /**
     * Called on the handler thread as a request without a body is dispatched: it was sent whole, so the
     * sweep leaves its connection alone while it is answered, however long that takes (an event stream, a
     * log follow, a blocking query). Jetty's parser may stay in a content state meanwhile, which the sweep
     * otherwise takes for a request still being sent. A request with a body is not marked: its body must
     * still arrive within the timeout. {@link #answered} ends it, before the exchange completes (so before
     * the connection reads its next request).
     */
    void serving(Connection c) {
        Open o = counted.get(c);
        if (o != null) {
            o.answering = true;
        }
    }

    /** The exchange {@link #serving} marked completes: the connection's next request is timed again. */
    void answered(Connection c) {
        Open o = counted.get(c);
        if (o != null) {
            o.answering = false;
        }
    }

    /** Connections open and counted. */
    int open() {
        return open.get();
    }

    /** Every second: closes connections that began a request more than {@code header_timeout} ago and have
     * not sent all of it. */
    void sweep() {
        long now = System.nanoTime();
        counted.forEach((connection, seen) -> {
            if (!(connection instanceof HttpConnection c)) {
                return;
            }
            HttpParser.State state = c.getParser().getState();
            boolean inRequest = state.ordinal() > HttpParser.State.START.ordinal()
                    && state.ordinal() < HttpParser.State.END.ordinal();
            long messages = c.getMessagesIn();
            if (!inRequest || seen.answering) {
                seen.messages = -1;
            } else if (seen.messages != messages) {
                seen.messages = messages;
                seen.since = now;
            } else if (now - seen.since > headerTimeoutNanos) {
                LOG.debug("connection from {} closed: request not sent within the header timeout",
                        c.getEndPoint().getRemoteSocketAddress());
                c.getEndPoint().close();
            }
        });
    }
}
