package io.drover.core.store;

import io.drover.core.fs.FileTrust;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The store directory's layout and file-system chores. The directory holds {@code state.snapshot} (everything
 * up to and including journal generation {@code gen}), at most a few {@code journal-<gen>.log} files (only
 * those newer than the snapshot count) and, after a crash during compaction, a {@code state.snapshot.tmp}
 * leftover, and {@code store.generation} (the newest journal generation ever created). The directory is 0700 and
 * the agent user's own, files are 0600.
 */
final class StoreFiles {
    static final String SNAPSHOT = "state.snapshot";
    static final String SNAPSHOT_TMP = "state.snapshot.tmp";
    /**
     * Holds the newest journal generation ever created, so that a journal (or the snapshot) that goes missing is
     * noticed at open instead of the store starting without its allocations.
     */
    static final String MARKER = "store.generation";
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

    Path marker() {
        return dir.resolve(MARKER);
    }

    /**
     * Creates the directory (0700) when missing; an existing one is restricted to 0700, once it is known to be the
     * agent's own: owned by the agent's user and not writable by group or others.
     *
     * @throws StoreRefusedException when an existing directory is another user's or others may write it: they
     *     could have removed or replaced its files (a pre-created {@code state/} in a shared data_dir)
     */
    void createDir() throws IOException {
        if (!POSIX) {
            Files.createDirectories(dir);
            return;
        }
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(DIR_PERMS));
        } else {
            Optional<String> untrusted = FileTrust.problem(dir, FileTrust.Owners.AGENT);
            if (untrusted.isPresent()) {
                throw new StoreRefusedException("state store: " + dir + " is " + untrusted.get()
                        + ": another user could have removed or replaced its files; refusing to open (check its "
                        + "content, then chown it to the agent's user and chmod 700 it, or move it aside)");
            }
        }
        Files.setPosixFilePermissions(dir, DIR_PERMS);
    }

    /**
     * The newest journal generation the store ever created, as {@link #MARKER} records it; empty when the file is
     * missing (a new store, or one written before the marker existed).
     *
     * @throws StoreCorruptException when it does not hold a generation
     */
    OptionalLong markedGen() throws IOException {
        Path file = marker();
        if (!Files.exists(file)) {
            return OptionalLong.empty();
        }
        byte[] bytes;
        try (var in = Files.newInputStream(file)) {
            bytes = in.readNBytes(64);
        }
        String text = new String(bytes, StandardCharsets.US_ASCII).strip();
        if (!text.matches("\\d{1,18}")) {
            throw new StoreCorruptException(file, 0, "not a journal generation");
        }
        return OptionalLong.of(Long.parseLong(text));
    }

    /**
     * Records {@code gen} as the newest journal generation: written to a temp file, synced and renamed over
     * {@link #MARKER}. The caller syncs the directory.
     */
    void markGen(long gen) throws IOException {
        Path tmp = dir.resolve(MARKER + ".tmp");
        try (FileChannel ch = openForWrite(tmp, false)) {
            ch.truncate(0);
            ByteBuffer b = ByteBuffer.wrap((gen + "\n").getBytes(StandardCharsets.US_ASCII));
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ch.force(true);
        }
        Files.move(tmp, marker(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
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
