package io.drover.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * Issue 4: {@code GET /v1/allocation/:id} latency of a {@code drover agent} child ({@link ChildAgent}, mock
 * driver) at 200 requests/s while allocations churn; aim p99 <= 5 ms. A churn thread registers a one-allocation
 * batch job (mock task, {@code run_for = "1s"}) every 10 ms over the API, so about 100 allocations are live and
 * about 100 start and end each second. The load is open-loop: request {@code i} is due at
 * {@code start + i / rate}; {@value #CONNECTIONS} keep-alive connections take the due requests in turn, and a
 * request's latency runs from its due time to the end of its response, so a stall also counts against the requests
 * queued behind it (no coordinated omission). Each request reads one of the 100 allocations placed last. The
 * first {@code warmup} seconds are not recorded. Parameters: {@code alloc_get.rate}, {@code alloc_get.seconds},
 * {@code alloc_get.warmup}, {@code alloc_get.churn=false} (100 allocations placed, then reads only).
 */
final class AllocGetBench implements Bench {
    static final int CONNECTIONS = 8;
    /**
     * When set, a file the row writes every request's times to (one line each: index, due, sent, end, in
     * {@link System#nanoTime()} nanoseconds, which on Linux is the monotonic clock the JVMs' {@code -Xlog} decorator
     * {@code timenanos} prints, so a slow request lines up with either JVM's pauses).
     */
    static final String TRACE_ENV = "DROVER_BENCH_ALLOC_GET_TRACE";
    private static final int LIVE = 100;
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public String name() {
        return "alloc_get";
    }

    @Override
    public List<Param> params() {
        return List.of(Param.count("rate", "requests per second (default 200)"),
                Param.count("seconds", "measured seconds (default 30, quick 5)"),
                Param.count("warmup", "seconds of requests before the measured ones (default 10, quick 2)"),
                Param.flag("churn", "keep placing allocations while measuring (default true)"));
    }

    @Override
    public List<Figure> run(BenchEnv env) throws Exception {
        int rate = env.count(this, "rate", 200);
        int seconds = env.count(this, "seconds", env.size(5, 30));
        int warmup = env.count(this, "warmup", env.size(2, 10));
        boolean churning = env.flag(this, "churn", true);
        Path dir = env.freshDir("alloc-get");
        long[] measured;
        int errors;
        int sentLate;
        Churn churn;
        try (ChildAgent agent = ChildAgent.spawn(env, dir, dir.resolve("data-" + System.nanoTime()), "WARN")) {
            agent.awaitOk("/v1/jobs");
            churn = new Churn(agent.port, churning);
            Thread churner = new Thread(churn, "bench-churn");
            churner.setDaemon(true);
            churner.start();
            try {
                churn.awaitLive(agent);
                // the client is a JVM too: its own young collection is a pause of the requests it sends, not the
                // agent's latency; with an empty young generation now and the load's reads allocation-free
                // (HttpConn.get), the measured window sees few or none of them
                System.gc();
                Load load = new Load(agent.port, rate, rate * (warmup + seconds), churn.recent);
                load.run();
                measured = Arrays.copyOfRange(load.latency, rate * warmup, load.latency.length);
                errors = load.errors.get();
                sentLate = load.sentLate(rate * warmup);
                load.trace(System.getenv(TRACE_ENV));
            } finally {
                churn.stop.set(true);
                churner.join(30_000);
            }
            if (!agent.alive()) {
                throw new IllegalStateException("the agent died during the run");
            }
        }
        Arrays.sort(measured);
        String note = String.format("%,d requests at %d/s, %d errors, %d sent > 1 ms late; %,d allocations placed%s",
                measured.length, rate, errors, sentLate, churn.placed.get(), churning ? " by the churn" : ", no churn");
        return List.of(Figure.info(name(), "GET /v1/allocation/:id p50, open-loop", pct(measured, 50), "ms",
                        String.format("p90 %.2f ms, max %.2f ms", pct(measured, 90), pct(measured, 100))),
                Figure.atMost(name(), "GET /v1/allocation/:id p99, open-loop", pct(measured, 99), "ms", note, 5));
    }

    private static double pct(long[] sorted, double p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6;
    }

    /** The churn: a one-allocation job every 10 ms; remembers the last {@value #LIVE} allocations placed. */
    private static final class Churn implements Runnable {
        final AtomicReferenceArray<String> recent = new AtomicReferenceArray<>(LIVE);
        final AtomicInteger placed = new AtomicInteger();
        final AtomicInteger errors = new AtomicInteger();
        final AtomicBoolean stop = new AtomicBoolean();
        private final int port;
        private final boolean forever;

        Churn(int port, boolean forever) {
            this.port = port;
            this.forever = forever;
        }

        /** Returns once {@value #LIVE} allocations are placed; throws if the agent dies or refuses them. */
        void awaitLive(ChildAgent agent) {
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (placed.get() < LIVE) {
                if (!agent.alive() || errors.get() > LIVE || System.nanoTime() > deadline) {
                    throw new IllegalStateException("the churn could not place " + LIVE + " allocations ("
                            + placed.get() + " placed, " + errors.get() + " errors, agent alive: " + agent.alive()
                            + ")");
                }
                LockSupport.parkNanos(10_000_000); // the churn thread fills the live set
            }
        }

        @Override
        public void run() {
            HttpConn conn = null;
            long next = System.nanoTime();
            for (int n = 0; !stop.get() && (forever || placed.get() < LIVE); n++) {
                String hcl = """
                        job "churn-%d" {
                          type = "batch"
                          group "g" {
                            task "t" {
                              driver = "mock"
                              config { run_for = "1s" }
                            }
                          }
                        }
                        """.formatted(n);
                try {
                    if (conn == null) {
                        conn = new HttpConn(port);
                    }
                    HttpConn.Response r = conn.send("PUT", "/v1/jobs", JSON.writeValueAsBytes(Map.of("JobHCL", hcl)));
                    if (r.status() != 200) {
                        errors.incrementAndGet();
                    } else {
                        for (JsonNode id : JSON.readTree(r.body()).path("Allocations")) {
                            recent.set(placed.getAndIncrement() % LIVE, id.asText());
                        }
                    }
                } catch (IOException e) {
                    errors.incrementAndGet();
                    conn = close(conn);
                }
                next += 10_000_000L;
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
            }
            close(conn);
        }
    }

    /** The open-loop load: {@code total} requests due at {@code rate}/s, on {@value #CONNECTIONS} threads. */
    private static final class Load {
        final long[] latency;
        /** When each request was written (nanoTime); its due time is {@code start + i * periodNanos}. */
        final long[] sent;
        final long[] end;
        private volatile long start;
        final AtomicInteger errors = new AtomicInteger();
        private final int port;
        private final long periodNanos;
        private final AtomicReferenceArray<String> ids;

        Load(int port, int rate, int total, AtomicReferenceArray<String> ids) {
            this.port = port;
            this.periodNanos = 1_000_000_000L / rate;
            this.latency = new long[total];
            this.sent = new long[total];
            this.end = new long[total];
            this.ids = ids;
        }

        void run() throws InterruptedException {
            long start = System.nanoTime() + 50_000_000L;
            this.start = start;
            Thread[] workers = new Thread[CONNECTIONS];
            for (int w = 0; w < CONNECTIONS; w++) {
                int first = w;
                workers[w] = new Thread(() -> requests(start, first), "bench-get-" + w);
                workers[w].start();
            }
            for (Thread w : workers) {
                w.join();
            }
        }

        private void requests(long start, int first) {
            HttpConn conn = null;
            for (int i = first; i < latency.length; i += CONNECTIONS) {
                long due = start + i * periodNanos;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
                try {
                    if (conn == null) {
                        conn = new HttpConn(port);
                    }
                    String path = "/v1/allocation/" + ids.get(i % LIVE);
                    sent[i] = System.nanoTime();
                    int status = conn.get(path);
                    end[i] = System.nanoTime();
                    latency[i] = end[i] - due;
                    if (status != 200) {
                        errors.incrementAndGet();
                    }
                } catch (IOException e) {
                    end[i] = System.nanoTime();
                    latency[i] = end[i] - due;
                    errors.incrementAndGet();
                    conn = close(conn);
                }
            }
            close(conn);
        }

        /** Requests from {@code from} on written more than 1 ms after their due time (the client's own lateness). */
        int sentLate(int from) {
            int late = 0;
            for (int i = from; i < sent.length; i++) {
                if (sent[i] - (start + i * periodNanos) > 1_000_000L) {
                    late++;
                }
            }
            return late;
        }

        /** Writes every request's times to {@code file} ({@link #TRACE_ENV}); nothing when it is null. */
        void trace(String file) throws IOException {
            if (file == null || file.isEmpty()) {
                return;
            }
            StringBuilder sb = new StringBuilder(sent.length * 48);
            for (int i = 0; i < sent.length; i++) {
                sb.append(i).append(' ').append(start + i * periodNanos).append(' ').append(sent[i]).append(' ')
                        .append(end[i]).append('\n');
            }
            java.nio.file.Files.writeString(Path.of(file), sb);
        }
    }

    private static HttpConn close(HttpConn conn) {
        if (conn != null) {
            try {
                conn.close();
            } catch (IOException ignored) {
                // closing a socket we give up on
            }
        }
        return null;
    }
}
