package io.drover.agent.http;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Where a task's logs are and which files a log request may read: only regular files named
 * {@code <task>.<type>.<N>} directly inside {@code <data_dir>/alloc/<alloc>/alloc/logs}, never through a
 * symbolic link (the folder is writable by the allocation's tasks, so a task could plant one, or replace a
 * folder on the way by one: every listing checks the folder's real path). Pure checks plus directory reads;
 * thread-safe.
 */
final class LogFiles {
    static final Set<String> TYPES = Set.of("stdout", "stderr");

    private LogFiles() {}

    /**
     * Refuses a {@code task} or {@code type} that could leave the log folder: empty, over 255 characters, or
     * containing {@code /}, {@code \}, {@code ..} or a control character (NUL included).
     */
    static void checkName(String what, String value) throws ApiException {
        if (value == null || value.isEmpty()) {
            throw ApiException.badRequest("query parameter " + what + " is required");
        }
        boolean bad = value.length() > 255 || value.contains("/") || value.contains("\\") || value.contains("..");
        for (int i = 0; !bad && i < value.length(); i++) {
            bad = Character.isISOControl(value.charAt(i));
        }
        if (bad) {
            throw ApiException.badRequest("invalid " + what + " name");
        }
    }

    /**
     * Where the allocation's log folder must be: below the data dir's real path, built from a known
     * allocation's full id (never from user input as typed). It may not exist yet (a just placed allocation).
     */
    static Path logDir(Path dataDir, String allocId) throws IOException {
        return dataDir.toRealPath().resolve("alloc").resolve(allocId).resolve("alloc").resolve("logs");
    }

    /** A log folder that resolves elsewhere: some part of it was replaced by a symbolic link. */
    static final class LinkedFolderException extends IOException {
        LinkedFolderException(Path dir) {
            super("the log folder " + dir + " is a link; refusing to follow it");
        }
    }

    /** The task's files of one type, by rotation index ({@code .0} first). */
    static List<Indexed> list(Path logDir, String task, String type) throws IOException {
        java.nio.file.attribute.BasicFileAttributes attrs;
        try {
            // one stat, not "is it a directory?" then "does it exist?": the engine may create the folder between two
            // checks, which then read as a link
            attrs = Files.readAttributes(logDir, java.nio.file.attribute.BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
        } catch (java.nio.file.NoSuchFileException e) {
            return List.of(); // not created yet (or destroyed): nothing to read now
        }
        if (!attrs.isDirectory()) {
            throw new LinkedFolderException(logDir);
        }
        if (!logDir.toRealPath().equals(logDir)) {
            throw new LinkedFolderException(logDir);
        }
        String prefix = task + "." + type + ".";
        Map<Integer, Path> byIndex = new TreeMap<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(logDir, prefix + "*")) {
            for (Path p : files) {
                String name = p.getFileName().toString();
                String suffix = name.substring(prefix.length());
                if (suffix.isEmpty() || suffix.length() > 9 || !suffix.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                Path file = logDir.resolve(name).normalize();
                if (!file.startsWith(logDir) || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                byIndex.put(Integer.parseInt(suffix), file);
            }
        }
        List<Indexed> out = new ArrayList<>();
        byIndex.forEach((i, p) -> out.add(new Indexed(i, p)));
        return out;
    }

    /** One log file and its rotation index. */
    record Indexed(int index, Path path) {}
}
