package io.drover.core.store;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/** The active journal file: appended by the writer thread only, synced once per batch. */
final class Journal implements Closeable {
    private final long gen;
    private final Path path;
    private final FileChannel channel;

    private Journal(long gen, Path path, FileChannel channel) {
        this.gen = gen;
        this.path = path;
        this.channel = channel;
    }

    /** Creates (or resets a torn-at-birth) journal of generation {@code gen}: magic written and synced. */
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

    long size() throws IOException {
        return channel.position();
    }

    /** Appends the buffer's frames (not yet durable). */
    void append(FrameBuffer frames) throws IOException {
        frames.drainTo(channel);
    }

    /** Makes everything appended durable ({@code fdatasync}: data and the file size). */
    void sync() throws IOException {
        channel.force(false);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
