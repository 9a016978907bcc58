package io.drover.agent.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
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
 * <p>Threads and limits: the JDK's dispatcher thread accepts and parses; handlers run on {@value #THREADS}
 * {@code drover-http-N} threads with a queue of {@value #QUEUE} exchanges (beyond that the JDK drops the
 * connection). A handler never blocks on a task; long log follows are detached to {@code LogFollowers}. Every
 * exception of a handler is turned into a response (500 for a bug, logged with its stack) and the exchange is
 * closed, so no request can kill a server thread or the agent. While the agent cannot record changes (its state
 * store cannot write to data_dir), requests that would change state get 503 and reads keep answering.
 */
public final class ApiServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);
    static final int THREADS = 16;
    static final int QUEUE = 512;
    /** Open connections the JDK server accepts at once (beyond: closed at accept), unless set in the JVM. */
    static final int MAX_CONNECTIONS = 512;

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

    /** {@link #start(String, int, Router, String, List, Supplier)} with no extra allowed Host names. */
    public static ApiServer start(String bindAddr, int port, Router router, String aclToken,
            Supplier<Optional<String>> writesRefused) throws IOException {
        return start(bindAddr, port, router, aclToken, List.of(), writesRefused);
    }

    /**
     * Binds and starts serving. Sets {@code sun.net.httpserver.nodelay=true} (without it keep-alive requests
     * wait ~40 ms on Nagle + delayed ACK) and, unless set, a 30 s limit to receive a request's headers and
     * body ({@code sun.net.httpserver.maxReqTime}) against slow senders and at most {@value #MAX_CONNECTIONS}
     * connections ({@code jdk.httpserver.maxConnections}); all must precede the JDK server's first use in this
     * JVM. The JDK's own limits stay: 200 request headers of at most 384 KiB in all (larger: connection closed).
     *
     * @param aclToken null for no token check
     * @param allowedHosts {@code http { allowed_hosts }}: Host names accepted besides the agent's own
     *     ({@link RequestOrigin})
     * @param writesRefused while it returns a reason, every matched request other than {@code GET}/{@code HEAD}
     *     (they change state: register, stop, signal, GC) is answered 503 with that one line; called on server
     *     threads, must be cheap and thread-safe
     */
    public static ApiServer start(String bindAddr, int port, Router router, String aclToken,
            List<String> allowedHosts, Supplier<Optional<String>> writesRefused) throws IOException {
        RequestOrigin origin = RequestOrigin.forAgent(bindAddr, allowedHosts);
        System.setProperty("sun.net.httpserver.nodelay", "true");
        setDefault("sun.net.httpserver.maxReqTime", "30");
        setDefault("jdk.httpserver.maxConnections", String.valueOf(MAX_CONNECTIONS));
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor executor = new ThreadPoolExecutor(THREADS, THREADS, 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(QUEUE), r -> {
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
