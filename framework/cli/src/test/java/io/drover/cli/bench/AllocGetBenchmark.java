package io.drover.cli.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code GET /v1/allocation/:id} latency at a steady request rate while allocations churn (issue 4: p99 ≤ 5 ms at
 * 200 requests/s with 100 allocations churning).
 *
 * <p>Starts {@code LAUNCHER agent -config} (the {@code drover} script: the JVM flags users get) on a free loopback
 * port with the mock driver. A churn thread registers one batch job (one allocation, mock task {@code run_for =
 * 1s}) every 10 ms over the API, so about 100 allocations are live at any time and ~100 start and finish per
 * second. The load is open-loop: request {@code i} is due at {@code start + i / rate}; {@value #CONNECTIONS}
 * keep-alive connections take the due requests round-robin, and a request's latency is measured from its due
 * time to the end of its response, so a stall also counts against the requests that queued behind it (no
 * coordinated omission). Each request reads one of the 100 most recently placed allocations. The first
 * {@code warmup} seconds are not recorded. Reproduce: {@code scripts/bench-alloc-get.sh} (docs/performance.md).
 */
public final class AllocGetBenchmark {
    static final int CONNECTIONS = 8;
    private static final ObjectMapper JSON = new ObjectMapper();

    private AllocGetBenchmark() {}

    public static void main(String[] args) throws Exception {
        int rate = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        String launcher = args.length > 3 ? args[3] : "./drover";
        Path plugins = Path.of(args.length > 4 ? args[4] : "plugins/dist").toAbsolutePath();
        Path dir = Files.createTempDirectory("drover-bench-get");
        int port = freePort();
        Path config = Files.writeString(dir.resolve("agent.hcl"), """
                data_dir   = "%s"
                plugin_dir = "%s"
                log_level  = "WARN"
                ports {
                  http = %d
                }
                """.formatted(dir.resolve("data"), plugins, port));
        Process agent = new ProcessBuilder(launcher, "agent", "-config", config.toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(dir.resolve("agent.log").toFile()).start();
        try {
            awaitReady(port, agent, dir.resolve("agent.log"));
            run(port, rate, seconds, warmup);
            System.out.println("agent alive after the run: " + agent.isAlive());
        } finally {
            agent.destroy();
            if (!agent.waitFor(60, TimeUnit.SECONDS)) {
                agent.destroyForcibly();
            }
        }
    }

    static void run(int port, int rate, int seconds, int warmup) throws Exception {
        AtomicReferenceArray<String> recent = new AtomicReferenceArray<>(100);
        AtomicInteger placed = new AtomicInteger();
        AtomicInteger churnErrors = new AtomicInteger();
        Thread churn = new Thread(() -> churn(port, recent, placed, churnErrors), "churn");
        churn.setDaemon(true);
        churn.start();
        if (Boolean.getBoolean("bench.noChurn")) {
            Thread.sleep(3000); // a fixed set of 100 allocations that end after 1 s: reads without churn
            churn.interrupt();
        }
        while (placed.get() < 100) {
            Thread.sleep(10); // let the live set fill before measuring
        }
        long periodNanos = 1_000_000_000L / rate;
        int total = rate * (warmup + seconds);
        int skip = rate * warmup;
        long[] latency = new long[total];
        AtomicInteger errors = new AtomicInteger();
        AtomicLong late = new AtomicLong();
        long start = System.nanoTime() + 50_000_000L;
        Thread[] workers = new Thread[CONNECTIONS];
        for (int w = 0; w < CONNECTIONS; w++) {
            int first = w;
            workers[w] = new Thread(() -> {
                Conn conn = null;
                for (int i = first; i < total; i += CONNECTIONS) {
                    long due = start + i * periodNanos;
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait);
                    } else if (-wait > 1_000_000) {
                        late.incrementAndGet();
                    }
                    String id = recent.get(i % 100);
                    try {
                        if (conn == null) {
                            conn = new Conn(port);
                        }
                        int status = conn.get("/v1/allocation/" + id);
                        latency[i] = System.nanoTime() - due;
                        if (status != 200) {
                            errors.incrementAndGet();
                        }
                    } catch (IOException e) {
                        latency[i] = System.nanoTime() - due;
                        errors.incrementAndGet();
                        conn = null;
                    }
                }
            }, "get-" + w);
            workers[w].start();
        }
        for (Thread w : workers) {
            w.join();
        }
        long[] measured = Arrays.copyOfRange(latency, skip, total);
        Arrays.sort(measured);
        System.out.printf("GET /v1/allocation/:id, %d req/s open-loop for %d s (after %d s warm-up), %d "
                + "connections, %,d allocations placed by the churn (%d churn errors):%n", rate, seconds, warmup,
                CONNECTIONS, placed.get(), churnErrors.get());
        System.out.printf("  p50 %.2f ms  p90 %.2f ms  p99 %.2f ms  p99.9 %.2f ms  max %.2f ms  (%d requests, "
                + "%d errors, %d sent >1 ms late)%n", pct(measured, 50), pct(measured, 90), pct(measured, 99),
                pct(measured, 99.9), measured[measured.length - 1] / 1e6, measured.length, errors.get(),
                late.get());
    }

    /** Registers a one-allocation job every 10 ms until the JVM exits; remembers the last 100 placed. */
    private static void churn(int port, AtomicReferenceArray<String> recent, AtomicInteger placed,
            AtomicInteger errors) {
        Conn conn = null;
        long next = System.nanoTime();
        for (int n = 0; !Thread.currentThread().isInterrupted() || placed.get() < 100; n++) {
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
                    conn = new Conn(port);
                }
                byte[] body = JSON.writeValueAsBytes(Map.of("JobHCL", hcl));
                Conn.Response r = conn.send("PUT", "/v1/jobs", body);
                if (r.status() != 200) {
                    errors.incrementAndGet();
                } else {
                    for (JsonNode id : JSON.readTree(r.body()).path("Allocations")) {
                        recent.set(placed.getAndIncrement() % 100, id.asText());
                    }
                }
            } catch (IOException e) {
                errors.incrementAndGet();
                conn = null;
            }
            next += 10_000_000L;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
        }
    }

    private static double pct(long[] sorted, double p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6;
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    static void awaitReady(int port, Process agent, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
            try (Conn c = new Conn(port)) {
                if (c.get("/v1/jobs") == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            if (!agent.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("agent not ready: " + Files.readString(log));
            }
            Thread.sleep(20); // a benchmark driver polling a child process, not a test
        }
    }

    /** A minimal HTTP/1.1 keep-alive client: one request at a time, Content-Length bodies only. */
    static final class Conn implements AutoCloseable {
        record Response(int status, byte[] body) {}

        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;

        Conn(int port) throws IOException {
            socket = new Socket();
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            socket.setSoTimeout(30_000);
            out = socket.getOutputStream();
            in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
        }

        int get(String path) throws IOException {
            return send("GET", path, null).status();
        }

        Response send(String method, String path, byte[] body) throws IOException {
            StringBuilder req = new StringBuilder(method).append(' ').append(path)
                    .append(" HTTP/1.1\r\nHost: 127.0.0.1\r\n");
            if (body != null) {
                req.append("Content-Type: application/json\r\nContent-Length: ").append(body.length).append("\r\n");
            }
            req.append("\r\n");
            out.write(req.toString().getBytes(StandardCharsets.US_ASCII));
            if (body != null) {
                out.write(body);
            }
            out.flush();
            String status = line();
            if (status == null) {
                throw new IOException("connection closed");
            }
            int code = Integer.parseInt(status.split(" ")[1]);
            int length = -1;
            for (String h = line(); h != null && !h.isEmpty(); h = line()) {
                int colon = h.indexOf(':');
                if (colon > 0 && h.substring(0, colon).equalsIgnoreCase("Content-Length")) {
                    length = Integer.parseInt(h.substring(colon + 1).trim());
                }
            }
            byte[] bytes = length > 0 ? in.readNBytes(length) : new byte[0];
            return new Response(code, bytes);
        }

        private String line() throws IOException {
            StringBuilder sb = new StringBuilder();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    return sb.length() == 0 ? null : sb.toString();
                }
                if (c != '\r') {
                    sb.append((char) c);
                }
            }
            return sb.toString();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
