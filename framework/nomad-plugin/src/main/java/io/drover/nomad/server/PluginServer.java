package io.drover.nomad.server;

import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The gRPC server of one plugin process, on the loopback address: go-plugin's services, BasePlugin and Driver.
 * Threads: one Netty event loop ({@code drover-nomad-io}) for every connection, and a fixed pool of
 * {@link #HANDLER_THREADS} ({@code drover-nomad-grpc-N}) that runs the handlers; handlers never wait for a task, so
 * a thousand tasks waiting hold no thread. Lifecycle: {@link #start}, then {@link #awaitShutdown} on the main
 * thread until {@link #shutdown} (go-plugin's controller Shutdown, or SIGTERM/SIGINT to the process).
 */
public final class PluginServer {
    static final int HANDLER_THREADS = Math.max(2, Runtime.getRuntime().availableProcessors());

    private final PluginHost host;
    private final String version;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final java.util.concurrent.atomic.AtomicBoolean stopping = new java.util.concurrent.atomic.AtomicBoolean();
    private Server server;
    private NioEventLoopGroup loop;
    private ExecutorService handlers;
    private StatsStreams stats;
    private GoPluginServices goPlugin;

    public PluginServer(PluginHost host, String version) {
        this.host = host;
        this.version = version;
    }

    /** Binds a port in the handshake's range (or any free one) and starts serving; returns the port. */
    public int start(Handshake handshake) throws IOException {
        AtomicInteger n = new AtomicInteger();
        handlers = new ThreadPoolExecutor(HANDLER_THREADS, HANDLER_THREADS, 0, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> daemon(r, "drover-nomad-grpc-" + n.incrementAndGet()));
        loop = new NioEventLoopGroup(1, (java.util.concurrent.ThreadFactory) r -> daemon(r, "drover-nomad-io"));
        stats = new StatsStreams();
        goPlugin = new GoPluginServices(this::shutdown);
        IOException last = null;
        int from = handshake.minPort() == 0 ? 0 : handshake.minPort();
        int to = handshake.minPort() == 0 ? 0 : handshake.maxPort();
        for (int port = from; port <= to; port++) {
            try {
                server = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), port))
                        .channelType(NioServerSocketChannel.class).bossEventLoopGroup(loop).workerEventLoopGroup(loop)
                        .executor(handlers)
                        .addService(goPlugin.health()).addService(goPlugin.controller())
                        .addService(goPlugin.broker()).addService(goPlugin.stdio())
                        .addService(new BasePluginService(host, version))
                        .addService(new DriverService(host, stats, version))
                        .build().start();
                return server.getPort();
            } catch (IOException e) {
                if (!(e.getCause() instanceof BindException) && !(e instanceof BindException)) {
                    throw e;
                }
                last = e;
            }
        }
        throw last != null ? last : new IOException("no port to bind");
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /** Stops serving (idempotent, any thread); tasks keep running for a later plugin to recover. */
    public void shutdown() {
        Thread t = new Thread(() -> {
            goPlugin.close();
            host.close();
            if (server != null) {
                server.shutdown();
                try {
                    server.awaitTermination(2, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                server.shutdownNow();
            }
            stats.close();
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            handlers.shutdownNow();
            stopped.countDown();
        }, "drover-nomad-shutdown");
        t.setDaemon(true);
        if (stopping.compareAndSet(false, true)) {
            t.start();
        }
    }

    /** Blocks the calling (main) thread until {@link #shutdown} has finished. */
    public void awaitShutdown() throws InterruptedException {
        stopped.await();
    }
}
