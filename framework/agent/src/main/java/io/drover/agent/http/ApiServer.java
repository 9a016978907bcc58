package io.drover.agent.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.drover.core.config.HttpConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP API on the JDK's {@link HttpServer}: one context at {@code /}; in order the browser rules
 * ({@link RequestOrigin}: Host, Origin), the token check, routing, the JSON content type of a body, the store
 * stall; and one error shape ({@code {"error": "..."}}) for every failure.
 *
 * <p>Threads and limits (issue 12, finding 6): the JDK's dispatcher thread accepts connections and waits for
 * their bytes; a connection's request line and headers are then read by the {@code drover-http-N} thread that
 * runs its exchange, blocking. So that slow senders cannot hold the threads other clients need, the pool keeps
 * {@value #THREADS} threads and grows on demand to one per open connection ({@code http { max_conns }} plus
 * {@value #THREADS}; extra threads end after {@value #KEEP_ALIVE_SECONDS} s idle); a connection must send its
 * whole request within {@code header_timeout} once it began, and may stay open without a request in progress
 * for {@code idle_timeout} (before its first request as between keep-alive ones); beyond {@code max_conns}
 * open connections a new one is closed at accept. A handler never blocks on a task; long log follows are
 * detached to {@code LogFollowers}. Every exception of a handler is turned into a response (500 for a bug,
 * logged with its stack) and the exchange is closed, so no request can kill a server thread or the agent. While
 * the agent cannot record changes (its state store cannot write to data_dir), requests that would change state
 * get 503 and reads keep answering.
 */
public final class ApiServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);
    /** Threads kept while idle; the pool grows past them on demand, one per open connection at most. */
    static final int THREADS = 16;
    static final int KEEP_ALIVE_SECONDS = 30;

    private final HttpServer server;
    private final ThreadPoolExecutor executor;
    private final Router router;
    private final TokenCheck tokens;
    private final RequestOrigin origin;
    private final Supplier<Optional<String>> writesRefused;

    private ApiServer(HttpServer server, ThreadPoolExecutor executor, Router router, TokenCheck tokens,
            RequestOrigin origin, Supplier<Optional<String>> writesRefused) {
        this.server = server;
        this.executor = executor;
        this.router = router;
        this.tokens = tokens;
        this.origin = origin;
        this.writesRefused = writesRefused;
    }

    /** {@link #start(String, int, Router, String, HttpConfig, Supplier)} with the default {@code http} block. */
    public static ApiServer start(String bindAddr, int port, Router router, String aclToken,
            Supplier<Optional<String>> writesRefused) throws IOException {
        return start(bindAddr, port, router, aclToken, HttpConfig.defaults(), writesRefused);
    }

    /**
     * Binds and starts serving. Sets {@code sun.net.httpserver.nodelay=true} (without it keep-alive requests
     * wait ~40 ms on Nagle + delayed ACK) and the JDK server's limits from {@code http}: {@code max_conns}
     * ({@code jdk.httpserver.maxConnections}), {@code header_timeout} ({@code sun.net.httpserver.maxReqTime})
     * and {@code idle_timeout} ({@code sun.net.httpserver.idleInterval}, checked every second). The JDK reads
     * them once per JVM, at its server's first use: a second agent in the same JVM keeps the first one's. The
     * JDK's own limits stay: 200 request headers of at most 384 KiB in all (larger: connection closed).
     *
     * @param aclToken null for no token check
     * @param http {@code allowed_hosts} (Host names accepted besides the agent's own, {@link RequestOrigin}) and
     *     the connection limits
     * @param writesRefused while it returns a reason, every matched request other than {@code GET}/{@code HEAD}
     *     (they change state: register, stop, signal, GC) is answered 503 with that one line; called on server
     *     threads, must be cheap and thread-safe
     */
    public static ApiServer start(String bindAddr, int port, Router router, String aclToken, HttpConfig http,
            Supplier<Optional<String>> writesRefused) throws IOException {
        RequestOrigin origin = RequestOrigin.forAgent(bindAddr, http.allowedHosts());
        System.setProperty("sun.net.httpserver.nodelay", "true");
        System.setProperty("jdk.httpserver.maxConnections", String.valueOf(http.maxConns()));
        System.setProperty("sun.net.httpserver.maxReqTime", String.valueOf(http.headerTimeout().toSeconds()));
        System.setProperty("sun.net.httpserver.idleInterval", String.valueOf(http.idleTimeout().toSeconds()));
        setDefault("sun.net.httpserver.clockTick", "1000"); // idle connections are looked at every tick
        AtomicInteger n = new AtomicInteger();
        // a direct hand-off: an exchange never waits in a queue behind connections that are slow to send
        ThreadPoolExecutor executor = new ThreadPoolExecutor(THREADS, http.maxConns() + THREADS, KEEP_ALIVE_SECONDS,
                TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
                    Thread t = new Thread(r, "drover-http-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        HttpServer server = HttpServer.create(new InetSocketAddress(bindAddr, port), 128);
        server.setExecutor(executor);
        ApiServer api = new ApiServer(server, executor, router, new TokenCheck(aclToken), origin,
                writesRefused);
        server.createContext("/", api::dispatch);
        server.start();
        return api;
    }

    private static void setDefault(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }

    /** The bound port (the ephemeral one when started with port 0). */
    public int port() {
        return server.getAddress().getPort();
    }

    public String host() {
        return server.getAddress().getHostString();
    }

    private void dispatch(HttpExchange exchange) {
        ApiRequest request = new ApiRequest(exchange, Map.of());
        try {
            origin.check(exchange.getRequestHeaders()::getFirst); // a web page's request: refused before all else
            tokens.check(exchange.getRequestHeaders());
            Router.Match match = router.match(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath());
            request = new ApiRequest(exchange, match.params());
            RequestOrigin.checkBody(exchange.getRequestMethod(), exchange.getRequestHeaders()::getFirst);
            refuseWrites(exchange.getRequestMethod());
            match.handler().handle(request);
        } catch (ApiException e) {
            answerError(request, e.status(), e.getMessage());
        } catch (IOException e) {
            LOG.debug("{} {}: connection failed: {}", exchange.getRequestMethod(), exchange.getRequestURI(),
                    e.toString());
        } catch (Exception | StackOverflowError | OutOfMemoryError e) {
            LOG.error("{} {} failed", exchange.getRequestMethod(), exchange.getRequestURI(), e);
            answerError(request, 500, "internal error: " + e.getClass().getSimpleName());
        } finally {
            if (!request.detached()) {
                exchange.close();
            }
        }
    }

    private void refuseWrites(String method) throws ApiException {
        if (method.equals("GET") || method.equals("HEAD")) {
            return;
        }
        Optional<String> why = writesRefused.get();
        if (why.isPresent()) {
            throw new ApiException(503, why.get());
        }
    }

    private static void answerError(ApiRequest request, int status, String message) {
        if (request.responded() || request.detached()) {
            return; // headers already sent: closing the exchange is all that is left
        }
        try {
            request.respond(status, Map.of("error", message == null ? "" : message));
        } catch (IOException e) {
            LOG.debug("could not send error {}: {}", status, e.toString());
        }
    }

    /**
     * Lets handlers in flight finish (up to a second; new exchanges are refused meanwhile), then closes every
     * connection. {@code HttpServer.stop(n)} is not used for the wait: on JDK 17 it always waits the full n s.
     */
    @Override
    public void close() {
        executor.shutdown();
        try {
            executor.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        server.stop(0);
        executor.shutdownNow();
    }
}
