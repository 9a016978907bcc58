package io.drover.core.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The store directory's layout and file-system chores. The directory holds {@code state.snapshot} (everything
 * up to and including journal generation {@code gen}), at most a few {@code journal-<gen>.log} files (only
 * those newer than the snapshot count) and, after a crash during compaction, a {@code state.snapshot.tmp}
 * leftover. The directory is 0700, files are 0600.
 */
final class StoreFiles {
    static final String SNAPSHOT = "state.snapshot";
    static final String SNAPSHOT_TMP = "state.snapshot.tmp";
    private static final Pattern JOURNAL = Pattern.compile("journal-(\\d{10})\\.log");

    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    private static final Set<PosixFilePermission> DIR_PERMS = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> FILE_PERMS = PosixFilePermissions.fromString("rw-------");

    private final Path dir;

    StoreFiles(Path dir) {
        this.dir = dir;
    }

    Path dir() {
        return dir;
    }

    Path snapshot() {
        return dir.resolve(SNAPSHOT);
    }

    Path snapshotTmp() {
        return dir.resolve(SNAPSHOT_TMP);
    }

    Path journal(long gen) {
        return dir.resolve(String.format("journal-%010d.log", gen));
    }

    /** Creates the directory (0700) when missing; an existing one is restricted to 0700. */
    void createDir() throws IOException {
        if (!POSIX) {
            Files.createDirectories(dir);
            return;
        }
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(DIR_PERMS));
        }
        Files.setPosixFilePermissions(dir, DIR_PERMS);
    }

    /** Generations of the journal files present, ascending. */
    List<Long> journalGens() throws IOException {
        List<Long> gens = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Matcher m = JOURNAL.matcher(p.getFileName().toString());
                if (m.matches()) {
                    gens.add(Long.parseLong(m.group(1)));
                }
            }
        }
        gens.sort(null);
        return gens;
    }

    /** Opens {@code file} for writing, creating it 0600 (and failing if it exists when {@code createNew}). */
    static FileChannel openForWrite(Path file, boolean createNew) throws IOException {
        Set<StandardOpenOption> opts = Set.of(StandardOpenOption.WRITE, StandardOpenOption.READ,
                createNew ? StandardOpenOption.CREATE_NEW : StandardOpenOption.CREATE);
        if (POSIX) {
            FileAttribute<?> attr = PosixFilePermissions.asFileAttribute(FILE_PERMS);
            return FileChannel.open(file, opts, attr);
        }
        return FileChannel.open(file, opts);
    }

    /** Makes creations, renames and deletions in the directory durable. */
    void syncDir() throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            if (POSIX) {
                throw e;
            }
        }
    }
}
