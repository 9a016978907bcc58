package io.drover.core.artifact;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Enumeration;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;

/**
 * Unpacks an archive into a directory inside the task's, refusing what would escape it: an entry whose name is
 * absolute or climbs out with {@code ..}, a symbolic link whose target leaves the destination, a hard link, a
 * device or FIFO, and any write through a link already there (the task may have planted one). Bytes written and
 * entries are bounded ({@link FetchLimits}); setuid/setgid bits are dropped. Blocking (pool threads only).
 */
final class Unpacker {
    private final FetchLimits limits;
    private final Bounded budget;
    private final Path root;
    private int entries;

    /** @param root the task directory: nothing is created outside it */
    Unpacker(FetchLimits limits, Bounded budget, Path root) {
        this.limits = limits;
        this.budget = budget;
        this.root = root;
    }

    void unpack(Path archive, ArchiveType type, Path dest, String fileName) throws IOException, ArtifactException,
            InterruptedException {
        SafeFiles.mkdirs(root, dest);
        switch (type) {
            case TAR -> tar(Files.newInputStream(archive), dest);
            case TAR_GZ -> tar(new GZIPInputStream(Files.newInputStream(archive), 64 * 1024), dest);
            case TAR_BZ2 -> tar(new BZip2CompressorInputStream(new BufferedInputStream(Files.newInputStream(archive))),
                    dest);
            case GZ -> single(new GZIPInputStream(Files.newInputStream(archive), 64 * 1024), dest,
                    type.strip(fileName));
            case BZ2 -> single(new BZip2CompressorInputStream(new BufferedInputStream(Files.newInputStream(archive))),
                    dest, type.strip(fileName));
            case ZIP -> zip(archive, dest);
        }
    }

    private void single(InputStream in, Path dest, String name) throws IOException, ArtifactException,
            InterruptedException {
        try (in) {
            writeFile(dest, entryPath(dest, name), in, 0644);
        }
    }

    private void tar(InputStream raw, Path dest) throws IOException, ArtifactException, InterruptedException {
        try (TarArchiveInputStream in = new TarArchiveInputStream(raw)) {
            TarArchiveEntry e;
            while ((e = in.getNextEntry()) != null) {
                count();
                Path target = entryPath(dest, e.getName());
                if (e.isDirectory()) {
                    SafeFiles.mkdirs(root, target);
                } else if (e.isSymbolicLink()) {
                    link(dest, target, e.getName(), e.getLinkName());
                } else if (e.isLink()) {
                    throw new ArtifactException("archive entry \"" + e.getName() + "\" is a hard link; refused");
                } else if (e.isFile()) {
                    writeFile(dest, target, in, e.getMode());
                } else {
                    throw new ArtifactException("archive entry \"" + e.getName()
                            + "\" is a device, FIFO or other special file; refused");
                }
            }
        }
    }

    private void zip(Path archive, Path dest) throws IOException, ArtifactException, InterruptedException {
        try (ZipFile zip = ZipFile.builder().setPath(archive).get()) {
            Enumeration<ZipArchiveEntry> all = zip.getEntriesInPhysicalOrder();
            while (all.hasMoreElements()) {
                ZipArchiveEntry e = all.nextElement();
                count();
                Path target = entryPath(dest, e.getName());
                if (e.isDirectory()) {
                    SafeFiles.mkdirs(root, target);
                } else if (e.isUnixSymlink()) {
                    link(dest, target, e.getName(), zip.getUnixSymlink(e));
                } else {
                    try (InputStream in = zip.getInputStream(e)) {
                        writeFile(dest, target, in, e.getUnixMode() == 0 ? 0644 : e.getUnixMode());
                    }
                }
            }
        }
    }

    private void count() throws ArtifactException {
        if (++entries > limits.maxEntries()) {
            throw new ArtifactException("archive has more than " + limits.maxEntries() + " entries");
        }
    }

    /** The entry's path in {@code dest}; refused when absolute or outside {@code dest}. */
    private static Path entryPath(Path dest, String name) throws ArtifactException {
        String n = name.replace('\\', '/');
        if (n.startsWith("/") || n.matches("^[A-Za-z]:.*")) {
            throw new ArtifactException("archive entry \"" + name + "\" has an absolute path; refused");
        }
        for (String part : n.split("/")) {
            if (part.equals("..")) {
                throw new ArtifactException("archive entry \"" + name + "\" escapes the destination; refused");
            }
        }
        if (n.indexOf('\0') >= 0) {
            throw new ArtifactException("archive entry name contains a NUL character; refused");
        }
        Path p = dest.resolve(n).normalize();
        if (!p.startsWith(dest.normalize())) {
            throw new ArtifactException("archive entry \"" + name + "\" escapes the destination; refused");
        }
        return p;
    }

    private void link(Path dest, Path at, String name, String target) throws IOException, ArtifactException {
        if (target == null || target.isEmpty() || target.startsWith("/")) {
            throw new ArtifactException("archive entry \"" + name + "\" is a symbolic link to an absolute path; "
                    + "refused");
        }
        Path resolved = at.getParent().resolve(target).normalize();
        if (!resolved.startsWith(dest.normalize()) || target.split("/").length == 0) {
            throw new ArtifactException("archive entry \"" + name + "\" is a symbolic link out of the destination ("
                    + target + "); refused");
        }
        SafeFiles.mkdirs(root, at.getParent());
        SafeFiles.clearFile(root, at);
        Files.createSymbolicLink(at, java.nio.file.Paths.get(target));
    }

    private void writeFile(Path dest, Path target, InputStream in, int mode) throws IOException, ArtifactException,
            InterruptedException {
        if (target.equals(dest.normalize())) {
            throw new ArtifactException("archive entry names the destination itself; refused");
        }
        SafeFiles.mkdirs(root, target.getParent());
        SafeFiles.clearFile(root, target);
        try (OutputStream out = Files.newOutputStream(target, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            budget.copy(in, out, "the unpacked archive");
        }
        Files.setPosixFilePermissions(target, permissions(mode));
    }

    /** rwx for user, group, others from the entry's mode; setuid, setgid and sticky dropped. Owner can always write. */
    static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> p = EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
        PosixFilePermission[] order = {PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE};
        int[] bits = {0100, 040, 020, 010, 04, 02, 01};
        for (int i = 0; i < bits.length; i++) {
            if ((mode & bits[i]) != 0) {
                p.add(order[i]);
            }
        }
        return p;
    }
}
