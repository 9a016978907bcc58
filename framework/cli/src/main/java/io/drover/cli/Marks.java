package io.drover.cli;

import java.io.PrintStream;

/**
 * Start-up marks of one command line, for measuring where its time goes (docs/performance.md, "Client commands",
 * session 11): with {@code -Ddrover.marks=true} (e.g. {@code JAVA_TOOL_OPTIONS=-Ddrover.marks=true ./drover ...})
 * each {@link #mark} prints one line to the process's standard error, the milliseconds since the JVM started and
 * since the previous mark returned (a mark's own printing is not counted); without it a mark is one read of a constant. Called on the command's thread; the marks
 * of other threads interleave but stay whole lines.
 */
public final class Marks {
    private static final boolean ON = Boolean.getBoolean("drover.marks");
    private static final PrintStream ERR = System.err;
    private static long last;
    private static long startNanos;

    private Marks() {}

    public static boolean on() {
        return ON;
    }

    /** Prints {@code drover-mark <ms since JVM start> (+<ms since previous mark>) <what>} when marks are on. */
    public static void mark(String what) {
        if (!ON) {
            return;
        }
        long now = System.nanoTime();
        synchronized (Marks.class) {
            if (startNanos == 0) {
                // the JVM's start, as nanoTime: its uptime taken once, when the first mark is printed
                startNanos = now - java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime() * 1_000_000L;
                last = startNanos;
            }
            ERR.printf("drover-mark %7.1f ms (+%6.1f) %s%n", (now - startNanos) / 1e6, (now - last) / 1e6, what);
            // the next interval leaves out this mark's own cost (its printing, the first one's uptime query)
            last = System.nanoTime();
        }
    }
}
