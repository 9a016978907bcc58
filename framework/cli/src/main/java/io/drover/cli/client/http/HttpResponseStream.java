package io.drover.cli.client.http;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * A response whose status and headers have been read: {@link #body()} yields the decoded body bytes (chunked
 * framing removed) and ends where the body ends. Closing it closes the connection. One thread reads it.
 */
public interface HttpResponseStream extends AutoCloseable {
    int status();

    InputStream body();

    /** The whole body as UTF-8 (the agent's JSON and error answers). */
    default String text() throws IOException {
        return new String(body().readAllBytes(), StandardCharsets.UTF_8);
    }

    @Override
    void close();
}
