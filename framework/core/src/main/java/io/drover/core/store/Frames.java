package io.drover.core.store;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The binary framing of every store file: an 8-byte magic, then frames of
 * {@code [length: int32 BE][crc: int32 BE][payload: length bytes of UTF-8 JSON]} where {@code crc} is the CRC32C
 * of the four length bytes followed by the payload. A frame is valid when its length is within
 * {@code 1..MAX_PAYLOAD}, it lies inside the file and its CRC matches.
 */
final class Frames {
    private Frames() {}

    static final int HEADER = 8;
    static final int MAX_PAYLOAD = 64 << 20;
    static final byte[] JOURNAL_MAGIC = "DRVJRNL1".getBytes(StandardCharsets.US_ASCII);
    static final byte[] SNAPSHOT_MAGIC = "DRVSNAP1".getBytes(StandardCharsets.US_ASCII);

    static int crc(byte[] buf, int lengthAt, int payloadLength) {
        CRC32C crc = new CRC32C();
        crc.update(buf, lengthAt, 4);
        crc.update(buf, lengthAt + HEADER, payloadLength);
        return (int) crc.getValue();
    }

    static void putInt(byte[] buf, int at, int v) {
        buf[at] = (byte) (v >>> 24);
        buf[at + 1] = (byte) (v >>> 16);
        buf[at + 2] = (byte) (v >>> 8);
        buf[at + 3] = (byte) v;
    }

    static int getInt(byte[] buf, int at) {
        return ((buf[at] & 0xff) << 24) | ((buf[at + 1] & 0xff) << 16) | ((buf[at + 2] & 0xff) << 8)
                | (buf[at + 3] & 0xff);
    }
}
