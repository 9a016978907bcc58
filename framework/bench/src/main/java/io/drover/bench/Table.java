package io.drover.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Renders figures as a fixed-width text table, one row per figure, in the order measured. */
public final class Table {
    private static final String[] HEADER = {"bench", "metric", "value", "baseline (same run)", "aim", "verdict"};

    private Table() {}

    public static String render(List<Figure> figures) {
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADER);
        for (Figure f : figures) {
            String value = Double.isNaN(f.value()) ? "-" : number(f.value()) + (f.unit().isEmpty() ? "" : " " + f.unit());
            rows.add(new String[] {f.bench(), f.metric(), value, f.baseline(), f.aim(),
                    f.verdict().name().toLowerCase(Locale.ROOT)});
        }
        int[] width = new int[HEADER.length];
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (String[] r : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < r.length; i++) {
                line.append(i == 2 ? pad(r[i], width[i], true) : pad(r[i], width[i], false));
                if (i < r.length - 1) {
                    line.append("  ");
                }
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        return out.toString();
    }

    /** A figure as people read it: 3 significant decimals below 10, 1 below 1,000, none above. */
    public static String number(double v) {
        double a = Math.abs(v);
        if (a == Math.rint(a) && a < 1e15) {
            return String.format(Locale.ROOT, "%,d", (long) v);
        }
        if (a < 10) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        if (a < 1000) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%,.0f", v);
    }

    private static String pad(String s, int w, boolean right) {
        String fill = " ".repeat(w - s.length());
        return right ? fill + s : s + fill;
    }
}
