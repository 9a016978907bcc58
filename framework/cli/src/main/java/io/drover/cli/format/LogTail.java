package io.drover.cli.format;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The last lines a task wrote to one of its log streams ({@code <logs>/<task>.<stream>.N}, the highest N being
 * the newest file), for {@code drover run -verbose}; {@link #section} escapes control characters. Reads at most
 * the last 64 KiB of the newest file. Pure apart from reading files; never throws for a missing or unreadable log
 * (returns no lines).
 */
public final class LogTail {
    private static final int MAX_BYTES = 64 * 1024;

    private LogTail() {}

    public static List<String> lastLines(Path logDir, String task, String stream, int lines) {
        Path newest = newest(logDir, task + "." + stream + ".");
        if (newest == null) {
            return List.of();
        }
        try (RandomAccessFile f = new RandomAccessFile(newest.toFile(), "r")) {
            long len = f.length();
            int n = (int) Math.min(len, MAX_BYTES);
            byte[] buf = new byte[n];
            f.seek(len - n);
            f.readFully(buf);
            List<String> all = new ArrayList<>(Arrays.asList(new String(buf, StandardCharsets.UTF_8).split("\n", -1)));
            if (!all.isEmpty() && all.get(all.size() - 1).isEmpty()) {
                all.remove(all.size() - 1);
            }
            if (n < len && !all.isEmpty()) {
                all.remove(0); // a partial first line
            }
            return all.subList(Math.max(0, all.size() - lines), all.size());
        } catch (IOException e) {
            return List.of();
        }
    }

    private static Path newest(Path dir, String prefix) {
        Path best = null;
        int bestIndex = -1;
        if (!Files.isDirectory(dir)) {
            return null;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, prefix + "*")) {
            for (Path p : files) {
                try {
                    int index = Integer.parseInt(p.getFileName().toString().substring(prefix.length()));
                    if (index > bestIndex) {
                        bestIndex = index;
                        best = p;
                    }
                } catch (NumberFormatException e) {
                    // not a log file of this stream
                }
            }
        } catch (IOException e) {
            return null;
        }
        return best;
    }

    /** The tail of both streams of a task, as printed under its section; empty when it wrote nothing. */
    public static String section(Path logDir, String task, int lines) {
        StringBuilder sb = new StringBuilder();
        for (String stream : new String[] {"stdout", "stderr"}) {
            List<String> tail = lastLines(logDir, task, stream, lines);
            if (!tail.isEmpty()) {
                sb.append('\n').append("Last ").append(stream).append(" lines:\n");
                // the tail sits inside a status report: a line cannot clear the screen or fake the report
                // (TerminalText); 'drover alloc logs' prints the output raw
                tail.forEach(l -> sb.append(TerminalText.escape(l)).append('\n'));
            }
        }
        return sb.toString();
    }
}
