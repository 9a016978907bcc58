package io.drover.core.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * The file-channel edge of the journal: the two calls through which every appended byte reaches the disk. Tests
 * replace it to inject the errors a full, read-only or failing disk gives ({@code ENOSPC}, {@code EROFS},
 * {@code EIO}), including a write that stores part of the buffer before failing. Called on the writer thread only.
 */
interface JournalIo {
    /** Writes from {@code src} at the channel's position, as {@link FileChannel#write(ByteBuffer)}. */
    int write(FileChannel channel, ByteBuffer src) throws IOException;

    /** Makes the written data durable, as {@code channel.force(false)} ({@code fdatasync}). */
    void force(FileChannel channel) throws IOException;

    /** The real thing. */
    JournalIo REAL = new JournalIo() {
        @Override
        public int write(FileChannel channel, ByteBuffer src) throws IOException {
            return channel.write(src);
        }

        @Override
        public void force(FileChannel channel) throws IOException {
            channel.force(false);
        }
    };
}
