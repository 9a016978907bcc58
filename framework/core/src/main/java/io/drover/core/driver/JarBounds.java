package io.drover.core.driver;

import java.io.IOException;
import java.io.InputStream;
import java.util.Enumeration;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Bounds on what loading a plugin JAR may read, checked before PF4J opens it: a JAR is a ZIP, and a small one can
 * declare (or, worse, inflate to) gigabytes — a zip bomb in {@code META-INF/extensions.idx} made PF4J read a
 * 2.2 GB line and ended the agent with an OutOfMemoryError. The central directory's numbers are checked for
 * every entry (count, declared size, compression ratio: what the class loader trusts), and the entries the
 * loader itself reads as text are inflated here with a limit, whatever size they declare. Pure apart from
 * reading the file; any thread.
 */
final class JarBounds {
    /** Entries a plugin JAR may hold (a fat JAR with its dependencies has a few thousand). */
    static final int MAX_ENTRIES = 65_536;
    /** What one entry may declare once inflated. */
    static final long MAX_ENTRY_BYTES = 256L << 20;
    /** What all entries together may declare once inflated. */
    static final long MAX_TOTAL_BYTES = 1L << 30;
    /** Inflated / compressed size an entry over {@link #RATIO_FLOOR} may have (classes: 2–5, text: ~10). */
    static final long MAX_RATIO = 100;
    static final long RATIO_FLOOR = 1L << 20;
    /** What an entry the loader reads itself (MANIFEST, extension index) may inflate to. */
    static final int MAX_TEXT_BYTES = 1 << 20;

    private JarBounds() {}

    /** Why the central directory of {@code zip} is out of bounds, or empty. */
    static Optional<String> problem(ZipFile zip) {
        int count = 0;
        long total = 0;
        Enumeration<? extends ZipEntry> entries = zip.entries();
        while (entries.hasMoreElements()) {
            ZipEntry e = entries.nextElement();
            if (++count > MAX_ENTRIES) {
                return Optional.of("it holds more than " + MAX_ENTRIES + " entries");
            }
            long size = e.getSize();
            long packed = e.getCompressedSize();
            if (size > MAX_ENTRY_BYTES) {
                return Optional.of(e.getName() + " declares " + mib(size) + " once inflated (at most "
                        + mib(MAX_ENTRY_BYTES) + " per entry)");
            }
            if (size > RATIO_FLOOR && packed > 0 && size / packed > MAX_RATIO) {
                return Optional.of(e.getName() + " inflates " + (size / packed) + " times (" + mib(size)
                        + " from " + packed + " bytes; at most " + MAX_RATIO + " times): a zip bomb");
            }
            total += Math.max(0, size);
            if (total > MAX_TOTAL_BYTES) {
                return Optional.of("its entries declare more than " + mib(MAX_TOTAL_BYTES) + " once inflated");
            }
        }
        return Optional.empty();
    }

    /**
     * The inflated bytes of {@code entry}, read with a limit: at most {@link #MAX_TEXT_BYTES}, whatever the entry
     * declares; empty when the JAR has no such entry.
     *
     * @throws TooLarge when it inflates to more
     */
    static Optional<byte[]> readText(ZipFile zip, String entry) throws IOException, TooLarge {
        ZipEntry e = zip.getEntry(entry);
        if (e == null) {
            return Optional.empty();
        }
        try (InputStream in = zip.getInputStream(e)) {
            byte[] bytes = in.readNBytes(MAX_TEXT_BYTES + 1);
            if (bytes.length > MAX_TEXT_BYTES) {
                throw new TooLarge(entry + " inflates to more than " + mib(MAX_TEXT_BYTES) + " (it declares "
                        + (e.getSize() < 0 ? "no size" : e.getSize() + " bytes") + ")");
            }
            return Optional.of(bytes);
        }
    }

    /** An entry read by {@link #readText} is over the limit; the message says which and how. */
    static final class TooLarge extends Exception {
        TooLarge(String message) {
            super(message, null, false, false);
        }
    }

    private static String mib(long bytes) {
        return bytes >= (1L << 20) ? (bytes >> 20) + " MiB" : bytes + " bytes";
    }
}
