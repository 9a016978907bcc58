package io.drover.core.store;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * Replays a store file with its JSON decoding spread over the machine's cores: {@link FrameScanner} first checks
 * every frame (length, CRC, torn tail), then the payloads are decoded in parallel chunks, then the records are
 * visited in file order on the calling thread. Decoding is most of an agent's start-up with a large store
 * (docs/performance.md); applying records stays sequential because each one depends on the ones before.
 *
 * <p>Errors are reported as by {@link FrameScanner#scan}: the first record (in file order) that cannot be decoded
 * or that the visitor refuses fails the replay with a {@link StoreCorruptException} at that frame's offset. One
 * difference: an invalid frame is found before any record is visited, so a file with both an invalid frame and an
 * earlier unacceptable record reports the invalid frame. Decoder threads are started and joined per window of
 * {@value #WINDOW} records.
 */
final class ParallelDecoder {
    /** Records below this count are decoded on the calling thread alone: a thread costs more than it saves. */
    static final int MIN_PER_THREAD = 2_000;
    /** Records decoded (and alive) at once. */
    static final int WINDOW = 16_384;

    /** Receives each decoded record and its frame's offset, in file order. */
    interface Visitor {
        void record(Records.Rec rec, long offset) throws Exception;
    }

    private ParallelDecoder() {}

    static FrameScanner.Result replay(Path file, byte[] data, byte[] magic, boolean tornTailAllowed,
            RecordCodec codec, Visitor visitor) throws StoreCorruptException {
        return replay(file, data, magic, tornTailAllowed, codec, visitor, WINDOW);
    }

    /** As above, with {@code window} records decoded at once (tests use small windows). */
    static FrameScanner.Result replay(Path file, byte[] data, byte[] magic, boolean tornTailAllowed,
            RecordCodec codec, Visitor visitor, int window) throws StoreCorruptException {
        Positions frames = new Positions();
        FrameScanner.Result result = FrameScanner.scan(file, data, magic, tornTailAllowed,
                (buf, o, l, offset) -> frames.add(o, l));
        int count = frames.count;
        // Windows bound the records alive at once (a 64 MiB journal holds ~170,000): decode one window on every
        // core, apply it in order, let its records go, then the next.
        Object[] decoded = new Object[Math.min(count, window)]; // a Records.Rec, or what decoding threw
        for (int base = 0; base < count; base += window) {
            int size = Math.min(window, count - base);
            decodeWindow(codec, data, frames, decoded, base, size);
            for (int k = 0; k < size; k++) {
                long offset = frames.off[base + k] - Frames.HEADER; // the frame starts with its header
                Object d = decoded[k];
                decoded[k] = null; // the image keeps what it needs; let the rest go early
                if (d instanceof Exception e) {
                    throw new StoreCorruptException(file, offset, "unreadable record (" + FrameScanner.oneLine(e)
                            + ")");
                }
                try {
                    visitor.record((Records.Rec) d, offset);
                } catch (StoreCorruptException e) {
                    throw e;
                } catch (Exception e) {
                    throw new StoreCorruptException(file, offset, "unreadable record (" + FrameScanner.oneLine(e)
                            + ")");
                }
            }
        }
        return result;
    }

    /** Decodes records {@code [base, base+size)} into {@code out[0, size)}, on up to every core; joins them. */
    private static void decodeWindow(RecordCodec codec, byte[] data, Positions frames, Object[] out, int base,
            int size) {
        int threads = (int) Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(),
                size / MIN_PER_THREAD));
        Thread[] helpers = new Thread[threads - 1];
        for (int t = 1; t < threads; t++) {
            int from = (int) ((long) size * t / threads);
            int to = (int) ((long) size * (t + 1) / threads);
            helpers[t - 1] = new Thread(() -> decode(codec, data, frames, out, base, from, to),
                    "drover-store-decoder-" + t);
            helpers[t - 1].setDaemon(true);
            helpers[t - 1].start();
        }
        decode(codec, data, frames, out, base, 0, (int) ((long) size / threads));
        boolean interrupted = false;
        for (Thread h : helpers) {
            while (true) {
                try {
                    h.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // the decoders finish on their own; the flag is restored below
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static void decode(RecordCodec codec, byte[] data, Positions frames, Object[] out, int base, int from,
            int to) {
        for (int k = from; k < to; k++) {
            int i = base + k;
            try {
                out[k] = codec.read(data, frames.off[i], frames.len[i]);
            } catch (Exception | StackOverflowError e) {
                out[k] = e instanceof Exception ex ? ex : new IllegalStateException("record nested too deeply");
            }
        }
    }

    /** Payload positions of the valid frames, in file order. */
    private static final class Positions {
        int[] off = new int[4096];
        int[] len = new int[4096];
        int count;

        void add(int o, int l) {
            if (count == off.length) {
                off = Arrays.copyOf(off, count * 2);
                len = Arrays.copyOf(len, count * 2);
            }
            off[count] = o;
            len[count] = l;
            count++;
        }
    }
}
