package io.drover.core.artifact;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;

/** Builds archives for tests, hostile ones included (entries a well-behaved tar tool would not write). */
final class Archives {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final TarArchiveOutputStream tar;

    private Archives() {
        tar = new TarArchiveOutputStream(bytes);
        tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
    }

    static Archives tar() {
        return new Archives();
    }

    Archives file(String name, String content, int mode) throws IOException {
        byte[] data = content.getBytes(StandardCharsets.UTF_8);
        TarArchiveEntry e = new TarArchiveEntry(name, true);
        e.setSize(data.length);
        e.setMode(0100000 | mode);
        tar.putArchiveEntry(e);
        tar.write(data);
        tar.closeArchiveEntry();
        return this;
    }

    Archives symlink(String name, String target) throws IOException {
        TarArchiveEntry e = new TarArchiveEntry(name, TarArchiveEntry.LF_SYMLINK, true);
        e.setLinkName(target);
        tar.putArchiveEntry(e);
        tar.closeArchiveEntry();
        return this;
    }

    Archives hardlink(String name, String target) throws IOException {
        TarArchiveEntry e = new TarArchiveEntry(name, TarArchiveEntry.LF_LINK, true);
        e.setLinkName(target);
        tar.putArchiveEntry(e);
        tar.closeArchiveEntry();
        return this;
    }

    byte[] bytes() throws IOException {
        tar.finish();
        tar.close();
        return bytes.toByteArray();
    }

    byte[] gzipped() throws IOException {
        return gzip(bytes());
    }

    static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        }
        return out.toByteArray();
    }

    static byte[] zip(String name, String content) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipArchiveOutputStream zip = new ZipArchiveOutputStream(out)) {
            ZipArchiveEntry e = new ZipArchiveEntry(name);
            e.setUnixMode(0100755);
            zip.putArchiveEntry(e);
            zip.write(content.getBytes(StandardCharsets.UTF_8));
            zip.closeArchiveEntry();
        }
        return out.toByteArray();
    }
}
