package io.drover.agent.http;

import io.drover.core.config.HttpConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP API on Jetty 12 core (no servlets): one handler; in order the browser rules ({@link RequestOrigin}:
 * Host, Origin), the token check, routing, the JSON content type of a body, the store stall; and one error shape
 * ({@code {"error": "..."}}) for every failure.
 *
 * <p>Threads and limits (issue 12, finding 6): one acceptor and one selector thread accept connections and read
 * request lines and headers without blocking, so a slow or idle client holds no handler thread. A parsed request
 * runs on a {@code drover-http-N} thread of a bounded pool ({@value #THREADS} kept while idle, at most
 * {@value #MAX_THREADS}; extra threads end after {@value #KEEP_ALIVE_SECONDS} s idle). Connections are counted as
 * they open ({@link Caps}): beyond {@code max_conns} in all, or beyond {@code max_conns_per_client} from one remote
 * IP address, a new one is closed at once, before a byte is read. A connection must send its whole request
 * (headers and body) within {@code header_timeout} once it began it (checked every second; the answer to a
 * request sent whole may take as long as it needs: an event stream, a log follow), and may stay open
 * without I/O for {@code idle_timeout} (before its first request as between keep-alive ones; a write the client
 * does not take for that long fails too). Request headers: at most {@value #MAX_HEADER_BYTES} bytes in all
 * (larger: 431). A handler never blocks on a task; long log follows are detached to {@code LogFollowers}. Every
 * exception of a handler is turned into a response (500 for a bug, logged with its stack) and the exchange
 * completed, so no request can kill a server thread or the agent. While the agent cannot record changes (its
 * state store cannot write to data_dir), requests that would change state get 503 and reads keep answering.
 */
public final class ApiServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);
    /** Methods that change nothing: an OOM while answering one is the request's alone (a 500, the agent goes on). */
    private static final java.util.Set<String> READ_ONLY = java.util.Set.of("GET", "HEAD", "OPTIONS");
    /** Threads kept while idle. */
    static final int THREADS = 16;
    /** The pool's bound: handlers in flight at once (plus Jetty's acceptor and selector). */
    static final int MAX_THREADS = 256;
    static final int KEEP_ALIVE_SECONDS = 30;
    static final int MAX_HEADER_BYTES = 64 * 1024;
    /** At stop: how long a connection with no request in flight may stay idle before it is closed. */
    static final int SHUTDOWN_IDLE_MILLIS = 50;

    private final Server server;
    private final ServerConnector connector;
    private final ScheduledExecutorService headerTimer;
    private final Router router;
    private final TokenCheck tokens;
    private final RequestOrigin origin;
    private final Supplier<Optional<String>> writesRefused;
    private final ConnectionCaps caps;

    private ApiServer(Server server, ServerConnector connector, ScheduledExecutorService headerTimer, Router router,
            TokenCheck tokens, RequestOrigin origin, Supplier<Optional<String>> writesRefused, ConnectionCaps caps) {
        this.server = server;
        this.caps = caps;
        this.connector = connector;
        this.headerTimer = headerTimer;
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
     * Binds and starts serving, with the limits of {@code http} (per server: two agents in one JVM keep their
     * own). Jetty sets TCP_NODELAY on accepted sockets (without it keep-alive requests wait ~40 ms on Nagle +
     * delayed ACK).
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
        QueuedThreadPool pool = new QueuedThreadPool(MAX_THREADS, THREADS, KEEP_ALIVE_SECONDS * 1000);
        pool.setName("drover-http");
        pool.setDaemon(true);
        Server server = new Server(pool);
        HttpConfiguration config = new HttpConfiguration();
        config.setRequestHeaderSize(MAX_HEADER_BYTES);
        config.setSendServerVersion(false);
        config.setSendDateHeader(true);
        config.setIdleTimeout(http.idleTimeout().toMillis());
        // no URI rules of Jetty's own, as with the JDK server: the router matches the raw path, decodes
        // parameters itself and handlers validate them (an ambiguous %2F or %2E must reach them, not a 400)
        config.setUriCompliance(UriCompliance.UNSAFE);
        ServerConnector connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(config));
        connector.setHost(bindAddr);
        connector.setPort(port);
        connector.setAcceptQueueSize(128);
        connector.setIdleTimeout(http.idleTimeout().toMillis());
        connector.setAcceptedTcpNoDelay(true);
        // at stop, a connection idle between requests (a client's kept-alive one) is closed after this, instead of
        // Jetty's default second that every close then waited for; one with a handler at work is never idle
        connector.setShutdownIdleTimeout(SHUTDOWN_IDLE_MILLIS);
        ConnectionCaps caps = new ConnectionCaps(http.maxConns(), http.maxConnsPerClient(), http.headerTimeout().toNanos());
        connector.addEventListener(caps);
        server.addConnector(connector);
        server.setErrorHandler(new JsonErrors());
        ScheduledExecutorService headerTimer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "drover-api-header-timeout");
            t.setDaemon(true);
            return t;
        });
        ApiServer api = new ApiServer(server, connector, headerTimer, router, new TokenCheck(aclToken), origin,
                writesRefused, caps);
        server.setHandler(new Handler.Abstract(org.eclipse.jetty.util.thread.Invocable.InvocationType.BLOCKING) {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                api.dispatch(request, response, callback);
                return true;
            }
        });
        try {
            server.start();
        } catch (IOException e) {
            api.close();
            throw e;
        } catch (Exception e) {
            api.close();
            throw new IOException("cannot start the HTTP API on " + bindAddr + ":" + port + ": " + e, e);
        }
        headerTimer.scheduleWithFixedDelay(caps::sweep, 1, 1, TimeUnit.SECONDS);
        return api;
    }

    /**
     * Jetty's own refusals (malformed framing, headers too large, an ambiguous message) in the API's error shape,
     * {@code {"error": "..."}}, rather than an HTML page.
     */
    private static final class JsonErrors extends ErrorHandler {
        @Override
        protected void generateResponse(Request request, Response response, int code, String message,
                Throwable cause, Callback callback) throws IOException {
            String text = message != null ? message : HttpStatus.getMessage(code);
            byte[] body = Json.MAPPER.writeValueAsBytes(Map.of("error", text == null ? "" : text));
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
            response.write(true, ByteBuffer.wrap(body), callback);
        }
    }

    /** The bound port (the ephemeral one when started with port 0). */
    public int port() {
        return connector.getLocalPort();
    }

    public String host() {
        String h = connector.getHost();
        return h == null ? "0.0.0.0" : h;
    }

    private void dispatch(Request jetty, Response response, Callback callback) {
        jetty.addIdleTimeoutListener(t -> false); // a handler at work (a quiet log follow) is not idle
        if (bodiless(jetty)) { // sent whole: no header timeout while it is answered
            Connection connection = jetty.getConnectionMetaData().getConnection();
            caps.serving(connection);
            callback = answered(callback, () -> caps.answered(connection));
        }
        ApiRequest.Exchange exchange = new ApiRequest.Exchange(callback);
        ApiRequest request = new ApiRequest(jetty, response, exchange, Map.of());
        String method = jetty.getMethod();
        Router.Handler handler = null;
        try {
            origin.check(request::header); // a web page's request: refused before all else
            if (!router.isPublic(method, rawPath(jetty))) {
                tokens.check(request::header);
            }
            Router.Match match = router.match(method, rawPath(jetty));
            request = new ApiRequest(jetty, response, exchange, match.params());
            RequestOrigin.checkBody(method, request::header);
            refuseWrites(method);
            handler = match.handler();
        } catch (ApiException e) {
            answerError(request, e.status(), e.getMessage());
        } catch (Exception | StackOverflowError | OutOfMemoryError e) {
            LOG.error("{} {} failed", method, jetty.getHttpURI(), e);
            answerError(request, 500, "internal error: " + e.getClass().getSimpleName());
        }
        if (handler == null) {
            exchange.close();
            return;
        }
        BlockingQueries waits = blocking;
        try {
            if (waits != null && waits.park(request, handler, this::run)) {
                return; // answered later, by the change it waits for or its wait's end
            }
        } catch (ApiException e) {
            answerError(request, e.status(), e.getMessage());
            exchange.close();
            return;
        }
        run(request, handler);
    }

    /**
     * Runs a matched handler and completes the exchange (unless the handler detached it): on the server thread
     * that read the request, or on one a blocking query's wake-up was handed to. Sets Nomad's query headers
     * first: {@code X-Nomad-Index} (the agent's index before the handler reads anything, so a client never gets
     * an index newer than the data it saw), {@code X-Nomad-KnownLeader: true}, {@code X-Nomad-LastContact: 0}
     * (one node: it is its own leader).
     */
    void run(ApiRequest request, Router.Handler handler) {
        String method = request.method();
        LongSupplier idx = index;
        // never 0, as Nomad: a client that sends index=0 does not block, and would poll in a loop
        request.setHeader("X-Nomad-Index", Long.toString(Math.max(1, idx == null ? 0 : idx.getAsLong())));
        request.setHeader("X-Nomad-KnownLeader", "true");
        request.setHeader("X-Nomad-LastContact", "0");
        try {
            handler.handle(request);
        } catch (ApiException e) {
            answerError(request, e.status(), e.getMessage());
        } catch (IOException e) {
            LOG.debug("{} {}: connection failed: {}", method, request.uri(), e.toString());
            request.abort(e);
        } catch (OutOfMemoryError e) {
            if (!READ_ONLY.contains(method)) {
                // A write that ran out of heap may have changed half of what it meant to (Engine.submit placed
                // some of a job's allocations): the agent must not go on serving that state. The JVM's default
                // handler decides; in the agent it is OutOfMemoryExit, which ends the agent with exit code 1.
                Thread.UncaughtExceptionHandler fatal = Thread.getDefaultUncaughtExceptionHandler();
                if (fatal != null) {
                    fatal.uncaughtException(Thread.currentThread(), e);
                }
            }
            LOG.error("{} {} failed", method, request.uri(), e);
            answerError(request, 500, "internal error: " + e.getClass().getSimpleName());
        } catch (Exception | StackOverflowError e) {
            LOG.error("{} {} failed", method, request.uri(), e);
            answerError(request, 500, "internal error: " + e.getClass().getSimpleName());
        } finally {
            if (!request.detached()) {
                request.complete();
            }
        }
    }

    private volatile LongSupplier index;
    private volatile BlockingQueries blocking;

    /**
     * Turns on Nomad's index headers and blocking queries ({@code ?index=&wait=} on GET routes), once, right after
     * start.
     */
    void indexes(LongSupplier current, BlockingQueries queries) {
        this.index = current;
        this.blocking = queries;
    }

    /** Runs {@code task} on the server's handler threads (a blocking query's wake-up). */
    void execute(Runnable task) {
        server.getThreadPool().execute(task);
    }

    /** {@code callback}, running {@code first} before it completes either way. */
    private static Callback answered(Callback callback, Runnable first) {
        return new Callback() {
            @Override
            public void succeeded() {
                first.run();
                callback.succeeded();
            }

            @Override
            public void failed(Throwable x) {
                first.run();
                callback.failed(x);
            }

            @Override
            public InvocationType getInvocationType() {
                return callback.getInvocationType();
            }
        };
    }

    /** No body follows the headers: neither a length above 0 nor a chunked transfer is announced. */
    private static boolean bodiless(Request r) {
        long length = r.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH);
        return length <= 0 && !r.getHeaders().contains(HttpHeader.TRANSFER_ENCODING);
    }

    /** The request's path as sent (percent escapes kept: the router decodes parameters itself). */
    private static String rawPath(Request r) {
        String p = r.getHttpURI().getPath();
        return p == null || p.isEmpty() ? "/" : p;
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
     * Lets handlers in flight finish (up to a second; new connections are refused meanwhile), then closes every
     * connection and stops the threads. A connection idle between requests is closed {@value #SHUTDOWN_IDLE_MILLIS}
     * ms into the stop (Jetty's default waited a second for each kept-alive client, on every agent close), so a
     * close with no handler at work takes tens of milliseconds. Bounded: Jetty's stop waits at most its stop
     * timeout per stage.
     */
    @Override
    public void close() {
        headerTimer.shutdownNow();
        server.setStopTimeout(1000);
        try {
            server.stop();
        } catch (Exception e) {
            LOG.debug("stopping the HTTP API: {}", e.toString());
        }
    }
}
