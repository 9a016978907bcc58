package io.drover.cli.format;

import java.util.List;

/**
 * Text layout in the style of Nomad's {@code columnize}: {@code key = value} lists with the {@code =} aligned, and
 * tables whose columns are as wide as their widest cell, two spaces apart. Every key, value and cell is escaped
 * first ({@link TerminalText}: the text of jobs, tasks and drivers cannot drive the terminal or break a row).
 * Pure; no trailing blanks on any line.
 */
public final class Columns {
    private static final String GAP = "  ";

    private Columns() {}

    /** One {@code key = value} line per pair, every key padded to the longest key. Pairs are {key, value}. */
    public static String keyValues(List<String[]> pairs) {
        // loops, not streams: a client command's first stream pipeline loads ~50 JDK classes (session 13)
        List<String[]> safe = escape(pairs);
        int width = 0;
        for (String[] p : safe) {
            width = Math.max(width, p[0].length());
        }
        StringBuilder sb = new StringBuilder();
        for (String[] p : safe) {
            sb.append(pad(p[0], width)).append(" = ").append(p[1]).append('\n');
        }
        return sb.toString();
    }

    /** A table: the first row is the header; every row has the same number of cells. */
    public static String table(List<String[]> cells) {
        if (cells.isEmpty()) {
            return "";
        }
        List<String[]> rows = escape(cells);
        int columns = rows.get(0).length;
        int[] widths = new int[columns];
        for (String[] row : rows) {
            for (int c = 0; c < columns; c++) {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < columns; c++) {
                if (c > 0) {
                    line.append(GAP);
                }
                line.append(c == columns - 1 ? row[c] : pad(row[c], widths[c]));
            }
            sb.append(stripTrailing(line)).append('\n');
        }
        return sb.toString();
    }

    private static List<String[]> escape(List<String[]> rows) {
        List<String[]> out = new java.util.ArrayList<>(rows.size());
        for (String[] row : rows) {
            out.add(escape(row));
        }
        return out;
    }

    private static String[] escape(String[] row) {
        String[] out = new String[row.length];
        for (int i = 0; i < row.length; i++) {
            out[i] = TerminalText.escape(row[i]);
        }
        return out;
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }

    private static String stripTrailing(StringBuilder line) {
        return line.toString().stripTrailing();
    }
}
