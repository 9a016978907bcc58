package io.drover.core.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Reads the frames of one store file and tells a torn tail from corruption.
 *
 * <p>A frame that is not valid is a <em>torn tail</em> only where a crash can leave one: in a file whose tail may
 * be torn (the newest journal) and when nothing readable follows it — the frame runs past the end of the file,
 * or it ends exactly at the end of the file, or only zero bytes follow (blocks allocated but never written).
 * Anywhere else an invalid frame is corruption.
 */
final class FrameScanner {
    /** Receives each valid frame's payload ({@code buf[off, off+len)}) and the frame's offset in the file. */
    interface Visitor {
        void frame(byte[] buf, int off, int len, long offset) throws IOException;
    }

    /**
     * @param validEnd offset just past the last valid frame (the file's length when nothing is torn)
     * @param fileLength the file's length
     */
    record Result(long validEnd, long fileLength) {
        boolean torn() {
            return validEnd < fileLength;
        }
    }

    private FrameScanner() {}

    static byte[] readAll(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size > Integer.MAX_VALUE - 16) {
                throw new IOException(file + " is too large to read (" + size + " bytes)");
            }
            ByteBuffer bb = ByteBuffer.allocate((int) size);
            while (bb.hasRemaining() && ch.read(bb) >= 0) {
                // keep reading
            }
            return bb.array();
        }
    }

    /**
     * Checks the magic and visits every valid frame of {@code data} (the content of {@code file}).
     *
     * @param tornTailAllowed whether an invalid last frame is a torn tail (newest journal) or corruption
     * @throws StoreCorruptException on a bad magic or an invalid frame that is not a torn tail; also when the
     *     visitor throws one, or any other exception, which is reported at the frame's offset
     */
    static Result scan(Path file, byte[] data, byte[] magic, boolean tornTailAllowed, Visitor visitor)
            throws StoreCorruptException {
        int n = data.length;
        if (n < magic.length) {
            if (tornTailAllowed && Arrays.equals(data, 0, n, magic, 0, n)) {
                return new Result(0, n);
            }
            throw new StoreCorruptException(file, 0, "file too short for its header (" + n + " bytes)");
        }
        if (!Arrays.equals(data, 0, magic.length, magic, 0, magic.length)) {
            throw new StoreCorruptException(file, 0, "not a Drover store file of this kind (bad magic)");
        }
        int pos = magic.length;
        while (pos < n) {
            String problem = invalid(data, pos);
            if (problem != null) {
                if (tornTailAllowed && tornTail(data, pos)) {
                    return new Result(pos, n);
                }
                throw new StoreCorruptException(file, pos, problem);
            }
            int len = Frames.getInt(data, pos);
            try {
                visitor.frame(data, pos + Frames.HEADER, len, pos);
            } catch (StoreCorruptException e) {
                throw e;
            } catch (Exception e) {
                throw new StoreCorruptException(file, pos, "unreadable record (" + oneLine(e) + ")");
            }
            pos += Frames.HEADER + len;
        }
        return new Result(n, n);
    }

    /** Why the frame at {@code pos} is invalid, or null when it is valid. */
    private static String invalid(byte[] data, int pos) {
        int n = data.length;
        if (n - pos < Frames.HEADER) {
            return "truncated frame header";
        }
        int len = Frames.getInt(data, pos);
        if (len <= 0 || len > Frames.MAX_PAYLOAD) {
            return "invalid frame length " + len;
        }
        if ((long) pos + Frames.HEADER + len > n) {
            return "frame of " + len + " bytes runs past the end of the file";
        }
        if (Frames.crc(data, pos, len) != Frames.getInt(data, pos + 4)) {
            return "checksum mismatch in a frame of " + len + " bytes";
        }
        return null;
    }

    private static boolean tornTail(byte[] data, int pos) {
        int n = data.length;
        if (n - pos < Frames.HEADER) {
            return true;
        }
        int len = Frames.getInt(data, pos);
        if (len > 0 && len <= Frames.MAX_PAYLOAD && (long) pos + Frames.HEADER + len >= n) {
            return true;
        }
        for (int i = pos; i < n; i++) {
            if (data[i] != 0) {
                return false;
            }
        }
        return true;
    }

    static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
