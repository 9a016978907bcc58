package io.drover.core.store;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * The active journal file: appended by the writer thread only, synced once per batch. It remembers its durable
 * end (the size at the last successful sync, or at open): a failed append or sync is undone by {@link #rollback},
 * so a batch that was not acknowledged never stays in the file to be read back, nor becomes a torn frame in the
 * middle of later ones.
 */
final class Journal implements Closeable {
    private final long gen;
    private final Path path;
    private final FileChannel channel;
    private long durableEnd;

    private Journal(long gen, Path path, FileChannel channel) throws IOException {
        this.gen = gen;
        this.path = path;
        this.channel = channel;
        this.durableEnd = channel.position();
    }

    /**
     * Creates (or resets a torn-at-birth) journal of generation {@code gen}: magic written and synced, then the
     * store's marker records {@code gen} as the newest generation (so its loss is noticed at open).
     */
    static Journal create(StoreFiles files, long gen) throws IOException {
        Path path = files.journal(gen);
        FileChannel ch = StoreFiles.openForWrite(path, false);
        try {
            ch.truncate(0);
            ByteBuffer magic = ByteBuffer.wrap(Frames.JOURNAL_MAGIC);
            while (magic.hasRemaining()) {
                ch.write(magic);
            }
            ch.force(true);
            files.markGen(gen);
            files.syncDir();
            return new Journal(gen, path, ch);
        } catch (IOException e) {
            ch.close();
            throw e;
        }
    }

    /** Reopens an existing journal for appending after its last valid frame, cutting off a torn tail. */
    static Journal reopen(Path path, long gen, long validEnd) throws IOException {
        FileChannel ch = StoreFiles.openForWrite(path, false);
        try {
            if (ch.size() > validEnd) {
                ch.truncate(validEnd);
                ch.force(true);
            }
            ch.position(validEnd);
            return new Journal(gen, path, ch);
        } catch (IOException e) {
            ch.close();
            throw e;
        }
    }

    long gen() {
        return gen;
    }

    Path path() {
        return path;
    }

    /** The durable size (what compaction measures). */
    long size() {
        return durableEnd;
    }

    /** Offset up to which the file is durable: nothing past it was ever acknowledged. */
    long durableEnd() {
        return durableEnd;
    }

    /**
     * Writes the buffer's frames at the durable end (overwriting what a failed attempt left there) and makes them
     * durable ({@code fdatasync}: data and the file size). The buffer is kept: the caller empties it once this
     * returns. On an exception nothing of the buffer counts as written; call {@link #rollback}.
     */
    void appendAndSync(FrameBuffer frames, JournalIo io) throws IOException {
        channel.position(durableEnd);
        frames.writeTo(channel, io);
        io.force(channel);
        durableEnd = channel.position();
    }

    /**
     * Cuts the file back to its durable end after a failed append or sync, so that the next agent opens a clean
     * file even if this one never writes again. Best effort: when the truncation fails too, the next attempt
     * overwrites the same bytes from the durable end (an attempt is never shorter than the one before), and a
     * leftover after a crash is a torn tail that the next open cuts off.
     *
     * @return null when the file is back at its durable end, else why it could not be cut
     */
    String rollback() {
        try {
            if (channel.size() > durableEnd) {
                channel.truncate(durableEnd);
            }
            channel.position(durableEnd);
            return null;
        } catch (IOException e) {
            return FrameScanner.oneLine(e);
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
