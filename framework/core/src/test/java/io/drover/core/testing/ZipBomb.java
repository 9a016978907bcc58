package io.drover.core.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Writes a real zip-bomb plugin JAR, the one of the attack run (issue 12 item 9): a valid MANIFEST naming a
 * plugin, and one deflated entry of zero bytes ({@code META-INF/extensions.idx} by default) that inflates to
 * {@code inflated} bytes from about a thousandth of that. The deflate stream is one compressed MiB of zeros
 * repeated (sync-flushed, so each copy is a byte-aligned, non-final block), written straight into a hand-made ZIP:
 * a 2 MB file for 2 GB takes a second, not the minutes deflating 2 GB would. The entry may declare a size other
 * than its real one ({@link #declaring}), as an attacker's would.
 */
public final class ZipBomb {
    private static final int CHUNK = 1 << 20;
    private final Map<String, String> manifest = new LinkedHashMap<>();
    private String entry = "META-INF/extensions.idx";
    private long inflated = 1L << 30;
    private Long declared;

    public static ZipBomb plugin(String id) {
        ZipBomb bomb = new ZipBomb();
        bomb.manifest.put("Manifest-Version", "1.0");
        bomb.manifest.put("Plugin-Id", id);
        bomb.manifest.put("Plugin-Version", "1.0.0");
        return bomb;
    }

    /** The bomb's entry name. */
    public ZipBomb entry(String name) {
        entry = name;
        return this;
    }

    /** What the entry inflates to, rounded up to a MiB. */
    public ZipBomb inflatingTo(long bytes) {
        inflated = bytes;
        return this;
    }

    /** The size the ZIP's headers claim for the entry (default: the real one). */
    public ZipBomb declaring(long bytes) {
        declared = bytes;
        return this;
    }

    public Path writeTo(Path file) {
        long chunks = (inflated + CHUNK - 1) / CHUNK;
        long realSize = chunks * CHUNK;
        byte[] block = syncFlushedZeros();
        byte[] end = {0x03, 0x00}; // a final, empty block with fixed Huffman codes
        CRC32 crc = new CRC32();
        byte[] zeros = new byte[CHUNK];
        for (long i = 0; i < chunks; i++) {
            crc.update(zeros);
        }
        try (OutputStream out = Files.newOutputStream(file)) {
            Writer w = new Writer(out);
            byte[] mf = manifestBytes();
            w.entry("META-INF/MANIFEST.MF", deflate(mf), crc(mf), mf.length, 1, new byte[0]);
            long size = declared != null ? declared : realSize;
            w.entry(entry, block, crc.getValue(), size, chunks, end);
            w.finish();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    private byte[] manifestBytes() {
        StringBuilder sb = new StringBuilder();
        manifest.forEach((k, v) -> sb.append(k).append(": ").append(v).append("\r\n"));
        return sb.append("\r\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    private static long crc(byte[] b) {
        CRC32 c = new CRC32();
        c.update(b);
        return c.getValue();
    }

    private static byte[] deflate(byte[] data) {
        Deflater d = new Deflater(Deflater.BEST_COMPRESSION, true);
        d.setInput(data);
        d.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        while (!d.finished()) {
            out.write(buf, 0, d.deflate(buf));
        }
        d.end();
        return out.toByteArray();
    }

    private static byte[] syncFlushedZeros() {
        Deflater d = new Deflater(Deflater.BEST_COMPRESSION, true);
        d.setInput(new byte[CHUNK]);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        int n;
        while ((n = d.deflate(buf, 0, buf.length, Deflater.SYNC_FLUSH)) > 0) {
            out.write(buf, 0, n);
        }
        d.end();
        return out.toByteArray();
    }

    /** A minimal ZIP writer: deflated entries, central directory, end record (no ZIP64: under 4 GiB). */
    private static final class Writer {
        private final OutputStream out;
        private long offset;
        private final List<byte[]> central = new ArrayList<>();

        Writer(OutputStream out) {
            this.out = out;
        }

        /** An entry whose data is {@code body} written {@code times} times, then {@code tail}. */
        void entry(String name, byte[] body, long crc, long size, long times, byte[] tail) throws IOException {
            byte[] n = name.getBytes(StandardCharsets.UTF_8);
            long packed = body.length * times + tail.length;
            ByteBuffer h = le(30 + n.length);
            h.putInt(0x04034b50).putShort((short) 20).putShort((short) 0).putShort((short) 8).putInt(0)
                    .putInt((int) crc).putInt((int) packed).putInt((int) size).putShort((short) n.length)
                    .putShort((short) 0).put(n);
            ByteBuffer c = le(46 + n.length);
            c.putInt(0x02014b50).putShort((short) 20).putShort((short) 20).putShort((short) 0).putShort((short) 8)
                    .putInt(0).putInt((int) crc).putInt((int) packed).putInt((int) size).putShort((short) n.length)
                    .putShort((short) 0).putShort((short) 0).putShort((short) 0).putShort((short) 0).putInt(0)
                    .putInt((int) offset).put(n);
            central.add(c.array());
            write(h.array());
            for (long i = 0; i < times; i++) {
                write(body);
            }
            write(tail);
        }

        void finish() throws IOException {
            long start = offset;
            for (byte[] c : central) {
                write(c);
            }
            ByteBuffer e = le(22);
            e.putInt(0x06054b50).putShort((short) 0).putShort((short) 0).putShort((short) central.size())
                    .putShort((short) central.size()).putInt((int) (offset - start)).putInt((int) start)
                    .putShort((short) 0);
            write(e.array());
        }

        private void write(byte[] b) throws IOException {
            out.write(b);
            offset += b.length;
        }

        private static ByteBuffer le(int size) {
            return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        }
    }
}
