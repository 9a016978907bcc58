package io.drover.core.store;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** A reusable, growable buffer of encoded frames, written to a channel in one go. Single-threaded. */
final class FrameBuffer extends ByteArrayOutputStream {
    private final RecordCodec codec;
    private long frames;

    FrameBuffer(RecordCodec codec, int initialSize) {
        super(initialSize);
        this.codec = codec;
    }

    /** Appends {@code rec} as one frame. */
    void append(Records.Rec rec) throws IOException {
        int start = count;
        write(new byte[Frames.HEADER], 0, Frames.HEADER);
        codec.write(rec, this);
        int length = count - start - Frames.HEADER;
        if (length > Frames.MAX_PAYLOAD) {
            count = start;
            throw new IOException("record of " + length + " bytes exceeds the frame limit of " + Frames.MAX_PAYLOAD);
        }
        Frames.putInt(buf, start, length);
        Frames.putInt(buf, start + 4, Frames.crc(buf, start, length));
        frames++;
    }

    /** Frames appended since this buffer was made. */
    long frames() {
        return frames;
    }

    /** Appends raw bytes (a file's magic). */
    void appendRaw(byte[] bytes) {
        write(bytes, 0, bytes.length);
    }

    /** Writes the whole buffer at the channel's position through {@code io}; the buffer is kept. */
    void writeTo(FileChannel channel, JournalIo io) throws IOException {
        ByteBuffer bb = ByteBuffer.wrap(buf, 0, count);
        while (bb.hasRemaining()) {
            io.write(channel, bb);
        }
    }

    /** Writes the whole buffer at the channel's position, then empties the buffer. */
    void drainTo(FileChannel channel) throws IOException {
        writeTo(channel, JournalIo.REAL);
        reset();
    }
}
