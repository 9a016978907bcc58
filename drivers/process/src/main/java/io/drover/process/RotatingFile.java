package io.drover.process;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * {@code <dir>/<base>.N} files of at most {@code maxFileSize} bytes, at most {@code maxFiles} of them. A new
 * instance continues the highest existing index (a restarted task appends, as Nomad's logmon does). Not
 * thread-safe: used by the log-writer thread only.
 */
final class RotatingFile implements AutoCloseable {
    private final Path dir;
    private final String base;
    private final LogRotation rotation;
    private int index;
    private long size;
    private FileChannel out;

    /** {@code first} is the host's {@code <task>.stdout.0}: its folder and name without the index. */
    RotatingFile(Path first, LogRotation rotation) {
        this.dir = first.toAbsolutePath().getParent();
        String name = first.getFileName().toString();
        this.base = name.matches(".*\\.\\d+") ? name.substring(0, name.lastIndexOf('.')) : name;
        this.rotation = rotation;
        this.index = highestIndex();
    }

    Path current() {
        return dir.resolve(base + "." + index);
    }

    /** Opens (creating) the current file if it is not open. */
    void open() throws IOException {
        if (out == null) {
            out = FileChannel.open(current(), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND);
            size = out.size();
        }
    }

    void write(byte[] data, int off, int len) throws IOException {
        while (len > 0) {
            open();
            if (size >= rotation.maxFileSize()) {
                rotate();
                continue;
            }
            int n = (int) Math.min(len, rotation.maxFileSize() - size);
            ByteBuffer buf = ByteBuffer.wrap(data, off, n);
            while (buf.hasRemaining()) {
                size += out.write(buf); // counted as it goes: a write cut short by a full disk still counts
            }
            off += n;
            len -= n;
        }
    }

    private void rotate() throws IOException {
        close();
        index++;
        int oldest = index - rotation.maxFiles();
        for (int i = oldest; i >= 0; i--) {
            if (!Files.deleteIfExists(dir.resolve(base + "." + i)) && i < oldest - 1) {
                break;
            }
        }
    }

    private int highestIndex() {
        int highest = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, base + ".*")) {
            for (Path f : files) {
                String suffix = f.getFileName().toString().substring(base.length() + 1);
                if (suffix.matches("\\d{1,9}")) {
                    highest = Math.max(highest, Integer.parseInt(suffix));
                }
            }
        } catch (IOException e) {
            // no folder yet: start at 0
        }
        return highest;
    }

    @Override
    public void close() throws IOException {
        if (out != null) {
            out.close();
            out = null;
        }
    }
}
