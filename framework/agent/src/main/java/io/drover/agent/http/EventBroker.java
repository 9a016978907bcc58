package io.drover.agent.http;

import io.drover.agent.JobRegistry;
import io.drover.core.engine.AllocationListener;
import io.drover.core.state.AllocationState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Nomad's event stream ({@code GET /v1/event/stream}) fed by the engine: every durable allocation change is
 * one {@code Allocation} event ({@code AllocationUpdated}, key: the allocation id, payload
 * {@code {"Allocation": {...}}}); a change that moves its job's registry index (a registration, a stop) is also
 * one {@code Job} event ({@code JobRegistered} or {@code JobDeregistered}, key: the job id, payload
 * {@code {"Job": <list stub>}}). Each event is its own NDJSON frame {@code {"Index":N,"Events":[...]}}; an idle
 * stream gets a {@code {}} heartbeat every {@value #HEARTBEAT_SECONDS} s. The index is this agent's event
 * counter (it starts at 0 with each agent; a client that reconnects reads the state it needs anew).
 *
 * <p>Threads: {@link #onUpdate} runs on engine threads, the registry's job listener on the registering thread
 * under the registry's lock; both only serialise (when someone listens) and queues
 * (never blocks, {@link EventSubscriber}); one {@code drover-event-heartbeat} thread sends heartbeats. At most
 * {@value #MAX_SUBSCRIBERS} streams at once. Thread-safe.
 */
final class EventBroker implements AllocationListener, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EventBroker.class);
    static final int MAX_SUBSCRIBERS = 64;
    static final int HEARTBEAT_SECONDS = 10;
    private static final byte[] HEARTBEAT = "{}\n".getBytes(StandardCharsets.US_ASCII);

    private final JobRegistry jobs;
    private final Set<EventSubscriber> subscribers = ConcurrentHashMap.newKeySet();
    private final Map<String, Long> jobIndexSeen = new ConcurrentHashMap<>();
    private final AtomicLong index = new AtomicLong();
    private final ScheduledExecutorService heartbeat;

    EventBroker(JobRegistry jobs) {
        this.jobs = jobs;
        // a registration whose allocation ended before the registry held it has no update left to announce it
        jobs.jobListener(this::jobEvent);
        this.heartbeat = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "drover-event-heartbeat");
            t.setDaemon(true);
            return t;
        });
        heartbeat.scheduleWithFixedDelay(this::beat, HEARTBEAT_SECONDS, HEARTBEAT_SECONDS, TimeUnit.SECONDS);
    }

    /** The index of the last event sent (0 before the first). */
    long index() {
        return index.get();
    }

    /** Adds a subscriber; false when {@value #MAX_SUBSCRIBERS} are streaming already. */
    boolean add(EventSubscriber s) {
        synchronized (subscribers) {
            if (subscribers.size() >= MAX_SUBSCRIBERS) {
                return false;
            }
            subscribers.add(s);
            return true;
        }
    }

    void remove(EventSubscriber s) {
        subscribers.remove(s);
    }

    int count() {
        return subscribers.size();
    }

    @Override
    public void onUpdate(AllocationState state) {
        jobEvent(state.jobId());
        if (subscribers.isEmpty()) {
            return;
        }
        publish("Allocation", "AllocationUpdated", state.id(), Map.of("Allocation", state));
    }

    /**
     * A Job event when the job's registry index moved since the last one seen: after each allocation update and
     * after each registration and stop ({@link JobRegistry.JobListener}, under the registry's lock); whichever sees
     * a new index first sends it, once.
     */
    private void jobEvent(String jobId) {
        JobRegistry.Entry e = jobs.job(jobId).orElse(null);
        if (e == null) {
            return;
        }
        Long before = jobIndexSeen.put(jobId, e.modifyIndex());
        if ((before != null && before == e.modifyIndex()) || subscribers.isEmpty()) {
            return;
        }
        publish("Job", e.stopped() ? "JobDeregistered" : "JobRegistered", jobId,
                Map.of("Job", JobJson.stub(jobs, e)));
    }

    private void publish(String topic, String type, String key, Map<String, Object> payload) {
        boolean wanted = false;
        for (EventSubscriber s : subscribers) {
            wanted |= s.wants(topic, key);
        }
        if (!wanted) {
            return;
        }
        byte[] frame;
        long n;
        try {
            synchronized (this) { // frames leave in index order
                n = index.incrementAndGet();
                Map<String, Object> event = new LinkedHashMap<>();
                event.put("Topic", topic);
                event.put("Type", type);
                event.put("Key", key);
                event.put("Namespace", "default");
                event.put("Index", n);
                event.put("Payload", payload);
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("Index", n);
                out.put("Events", java.util.List.of(event));
                byte[] json = Json.MAPPER.writeValueAsBytes(out);
                frame = java.util.Arrays.copyOf(json, json.length + 1);
                frame[json.length] = '\n';
                for (EventSubscriber s : subscribers) {
                    if (s.wants(topic, key)) {
                        s.offer(frame);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("event {} {} not sent: {}", topic, key, e.toString());
        }
    }

    private void beat() {
        for (EventSubscriber s : subscribers) {
            s.offer(HEARTBEAT);
        }
    }

    /** Ends every stream (their connections close) and the heartbeat thread. */
    @Override
    public void close() {
        heartbeat.shutdownNow();
        for (EventSubscriber s : subscribers) {
            s.close(new IOException("agent shutting down"));
        }
    }
}
