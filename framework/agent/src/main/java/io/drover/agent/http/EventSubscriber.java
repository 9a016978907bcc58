package io.drover.agent.http;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Set;
import java.util.function.Consumer;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client of {@code GET /v1/event/stream}: its topic filter and a bounded queue of NDJSON frames written to
 * its connection with Jetty's asynchronous {@link Response#write}, so no thread waits for a reader. A frame is
 * offered by an engine thread (or the heartbeat timer), never blocks: it is queued, and a write is started when
 * none is in flight; each completed write starts the next one with everything queued meanwhile. A client that
 * lets more than {@value #MAX_QUEUED_BYTES} bytes pile up is dropped (its connection closed) instead of
 * holding memory or the engine. Thread-safe: the queue is guarded by this object's monitor, held only to queue
 * and take buffers, never across a write.
 */
final class EventSubscriber {
    private static final Logger LOG = LoggerFactory.getLogger(EventSubscriber.class);
    static final int MAX_QUEUED_BYTES = 4 << 20;

    private final Response response;
    private final ApiRequest.Exchange exchange;
    private final Set<String> topics; // "Topic" or "Topic:Key"; "*" matches every topic
    private final Consumer<EventSubscriber> onClose;
    private final ArrayDeque<ByteBuffer> queue = new ArrayDeque<>();
    private int queuedBytes;
    private boolean writing;
    private boolean closed;

    EventSubscriber(Response response, ApiRequest.Exchange exchange, Set<String> topics,
            Consumer<EventSubscriber> onClose) {
        this.response = response;
        this.exchange = exchange;
        this.topics = topics;
        this.onClose = onClose;
    }

    /** Whether an event of {@code topic} with {@code key} is for this subscriber. Pure. */
    boolean wants(String topic, String key) {
        return topics.contains("*") || topics.contains(topic) || topics.contains(topic + ":" + key);
    }

    /** Queues one frame (a whole line) and starts a write if none is in flight; never blocks. */
    void offer(byte[] frame) {
        synchronized (this) {
            if (closed) {
                return;
            }
            if (queuedBytes + frame.length <= MAX_QUEUED_BYTES) {
                queue.add(ByteBuffer.wrap(frame));
                queuedBytes += frame.length;
                if (writing) {
                    return;
                }
                writing = true;
            } else {
                LOG.info("event stream client dropped: it did not read {} bytes of events", queuedBytes);
                markClosedLocked();
                frame = null;
            }
        }
        if (frame == null) {
            end(new IOException("event stream reader too slow")); // outside the monitor: it calls into Jetty
            return;
        }
        writeNext();
    }

    /** Takes everything queued and writes it as one buffer; the callback writes what came meanwhile. */
    private void writeNext() {
        ByteBuffer out;
        synchronized (this) {
            if (closed || queue.isEmpty()) {
                writing = false;
                return;
            }
            out = ByteBuffer.allocate(queuedBytes);
            for (ByteBuffer b : queue) {
                out.put(b);
            }
            out.flip();
            queue.clear();
            queuedBytes = 0;
        }
        response.write(false, out, new Callback() {
            @Override
            public void succeeded() {
                writeNext();
            }

            @Override
            public void failed(Throwable x) {
                LOG.debug("event stream client gone: {}", x.toString());
                close(x);
            }
        });
    }

    /** Ends the stream by closing the connection (an event stream has no last frame). Idempotent; any thread. */
    void close(Throwable why) {
        synchronized (this) {
            if (!markClosedLocked()) {
                return;
            }
        }
        end(why);
    }

    /** Marks the stream closed and drops its queue; false when it already was. */
    private boolean markClosedLocked() {
        if (closed) {
            return false;
        }
        closed = true;
        queue.clear();
        queuedBytes = 0;
        return true;
    }

    /**
     * Fails the exchange (Jetty closes the connection and fails a write in flight, whose callback may run on this
     * thread or a Jetty one and takes this object's monitor) and leaves the broker. Called once, by the thread that
     * marked the stream closed, never under this object's monitor: held across a call into Jetty, it would be
     * taken before Jetty's locks here and after them by a Jetty thread completing a write (a lock-order hazard
     * the agent's close, which ends every stream, must not run into).
     */
    private void end(Throwable why) {
        exchange.abort(why);
        onClose.accept(this);
    }
}
