package io.drover.agent.http;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Copies a {@link LogCursor} to a response body, raw ({@code plain=true}) or as Nomad's stream frames
 * ({@code {"File": "alloc/logs/web.stdout.0", "Offset": <offset of Data's first byte>, "Data": "<base64>"}},
 * one JSON object per read, concatenated; {@code {}} is a heartbeat). Not thread-safe: one owner at a time.
 */
final class LogStream {
    static final int READ_BYTES = 64 * 1024;

    private final LogCursor cursor;
    private final OutputStream out;
    private final boolean plain;
    private final ByteBuffer buf = ByteBuffer.allocate(READ_BYTES);

    LogStream(LogCursor cursor, OutputStream out, boolean plain) {
        this.cursor = cursor;
        this.out = out;
        this.plain = plain;
    }

    static String contentType(boolean plain) {
        return plain ? "text/plain; charset=utf-8" : "application/json";
    }

    /**
     * Copies what the log holds now, at most {@code budget} bytes, and flushes.
     *
     * @return the number of log bytes copied
     */
    long pump(long budget) throws IOException {
        long copied = 0;
        while (copied < budget) {
            buf.clear();
            int n = cursor.read(buf);
            if (n <= 0) {
                break;
            }
            long start = cursor.offset() - n;
            if (plain) {
                out.write(buf.array(), 0, n);
            } else {
                Map<String, Object> frame = new LinkedHashMap<>();
                frame.put("File", cursor.file());
                frame.put("Offset", start);
                frame.put("Data", Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buf.array(), n)));
                out.write(Json.MAPPER.writeValueAsBytes(frame));
            }
            copied += n;
        }
        if (copied > 0) {
            out.flush();
        }
        return copied;
    }

    /** A frame that carries nothing, to find out whether the client is still there (frames only). */
    boolean heartbeat() throws IOException {
        if (plain) {
            return false;
        }
        out.write("{}".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return true;
    }

    void close() throws IOException {
        out.close();
    }
}
