package io.drover.cli.client.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A loopback server (127.0.0.1, a free port) that accepts one connection, reads the request head and its
 * {@code Content-Length} body, answers with canned bytes and closes: the wire side of the HTTP client's tests.
 * {@link #request()} completes with the request as received. Its one thread ends in {@link #close}.
 */
final class CannedServer implements AutoCloseable {
    private final ServerSocket server;
    private final ExecutorService thread = Executors.newSingleThreadExecutor();
    private final CompletableFuture<String> request = new CompletableFuture<>();

    /** @param answer the bytes sent back; null: send nothing and keep the connection open until closed */
    CannedServer(byte[] answer) throws IOException {
        server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        thread.execute(() -> {
            try (Socket s = server.accept()) {
                request.complete(readRequest(s.getInputStream()));
                if (answer == null) {
                    s.getInputStream().read(); // until the client gives up and closes
                    return;
                }
                s.getOutputStream().write(answer);
                s.getOutputStream().flush();
            } catch (IOException e) {
                request.completeExceptionally(e);
            }
        });
    }

    CannedServer(String answer) throws IOException {
        this(answer.getBytes(StandardCharsets.ISO_8859_1));
    }

    String address() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    String request() throws Exception {
        return request.get(10, TimeUnit.SECONDS);
    }

    private static String readRequest(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.UTF_8).endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                break;
            }
            head.write(c);
        }
        String h = head.toString(StandardCharsets.UTF_8);
        int length = 0;
        for (String line : h.split("\r\n")) {
            if (line.toLowerCase().startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        return h + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws Exception {
        server.close();
        thread.shutdownNow();
        if (!thread.awaitTermination(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the canned server's thread did not end");
        }
    }
}
