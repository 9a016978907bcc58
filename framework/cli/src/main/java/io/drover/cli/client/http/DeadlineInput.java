package io.drover.cli.client.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * A socket's input that fails with {@code request timed out} once a deadline passes: each read waits at most
 * the time left (the socket's read timeout is set before it). Deadline 0: reads wait as long as it takes.
 * One thread reads it.
 */
final class DeadlineInput extends InputStream {
    static final String TIMED_OUT = "request timed out";

    private final Socket socket;
    private final InputStream in;
    private final long deadline;

    DeadlineInput(Socket socket, long deadline) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.deadline = deadline;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        arm();
        try {
            return in.read(b, off, len);
        } catch (SocketTimeoutException e) {
            throw new IOException(TIMED_OUT, e);
        }
    }

    private void arm() throws IOException {
        if (deadline == 0) {
            return;
        }
        long left = (deadline - System.nanoTime()) / 1_000_000;
        if (left <= 0) {
            throw new IOException(TIMED_OUT);
        }
        socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
