package io.drover.core.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link JournalIo} that fails like a full, read-only or failing disk while {@link #failWrites}/{@link
 * #failSyncs} is set: the first failing write stores {@code tornBytes} of the buffer before throwing (a write
 * cut short by ENOSPC), later ones store nothing. Counts what reached the file.
 */
final class FaultyIo implements JournalIo {
    volatile String failWrites; // the OS reason to throw, or null
    volatile String failSyncs;
    volatile int tornBytes;
    final AtomicInteger failedWrites = new AtomicInteger();
    final AtomicInteger failedSyncs = new AtomicInteger();
    final AtomicLong bytesWritten = new AtomicLong();

    @Override
    public int write(FileChannel channel, ByteBuffer src) throws IOException {
        String reason = failWrites;
        if (reason == null) {
            int n = JournalIo.REAL.write(channel, src);
            bytesWritten.addAndGet(n);
            return n;
        }
        if (failedWrites.getAndIncrement() == 0 && tornBytes > 0) {
            ByteBuffer part = src.duplicate();
            part.limit(part.position() + Math.min(tornBytes, part.remaining()));
            while (part.hasRemaining()) {
                bytesWritten.addAndGet(channel.write(part));
            }
        }
        throw new IOException(reason);
    }

    @Override
    public void force(FileChannel channel) throws IOException {
        String reason = failSyncs;
        if (reason != null) {
            failedSyncs.incrementAndGet();
            throw new IOException(reason);
        }
        JournalIo.REAL.force(channel);
    }
}
