package io.drover.cli.e2e;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Damages a journal the way a bad disk would: one byte inside the payload of a record in the middle of the file,
 * with valid records after it (so it is corruption, not a torn tail). Layout (docs/state-store.md): an 8-byte
 * magic, then frames of {@code [length:int][crc:int][payload]}.
 */
final class StoreDamage {
    private static final int MAGIC = 8;
    private static final int HEADER = 8;

    private StoreDamage() {}

    static void flipByteInAMiddleRecord(Path journal) throws Exception {
        byte[] data = Files.readAllBytes(journal);
        ByteBuffer buf = ByteBuffer.wrap(data);
        int pos = MAGIC;
        int target = -1;
        while (pos + HEADER <= data.length) {
            int len = buf.getInt(pos);
            int next = pos + HEADER + len;
            if (len <= 0 || next > data.length) {
                break;
            }
            if (pos >= data.length / 3 && next < data.length) {
                target = pos + HEADER + len / 2;
                break;
            }
            pos = next;
        }
        if (target < 0) {
            throw new AssertionError("no record with records after it in " + journal + " (" + data.length + " bytes)");
        }
        data[target] ^= 0x5A;
        Files.write(journal, data);
    }
}
