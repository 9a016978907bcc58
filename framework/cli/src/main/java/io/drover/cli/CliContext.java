package io.drover.cli;

import java.io.PrintStream;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Set;
import java.util.TimeZone;

/**
 * Where a command writes and what it knows of its surroundings; injected so that tests run the CLI in-process.
 * Immutable but for the zone of {@link #system()} and {@link #of}, read on first use (idempotent; any thread).
 *
 * <p>out: results (status text, JSON): what a script pipes on; err: warnings, errors and the live status;
 * errIsTerminal: whether {@code err} is an ANSI terminal (live status redrawn in place); env: the environment
 * ({@code DROVER_DEBUG}, {@code COLUMNS}); zone: the zone local times are printed in.
 */
public final class CliContext {
    private final PrintStream out;
    private final PrintStream err;
    private final boolean errIsTerminal;
    private final Map<String, String> env;
    /** null until first read when the process's default zone is meant (see {@link #zone()}). */
    private volatile ZoneId zone;

    /** A context with a fixed zone. */
    public CliContext(PrintStream out, PrintStream err, boolean errIsTerminal, Map<String, String> env,
            ZoneId zone) {
        this(out, err, errIsTerminal, env);
        this.zone = java.util.Objects.requireNonNull(zone, "zone");
    }

    private CliContext(PrintStream out, PrintStream err, boolean errIsTerminal, Map<String, String> env) {
        this.out = out;
        this.err = err;
        this.errIsTerminal = errIsTerminal;
        this.env = Map.copyOf(env);
    }

    /** The real process: System.out/err, a terminal when there is a console and TERM is not dumb. */
    public static CliContext system() {
        String term = System.getenv("TERM");
        boolean terminal = System.console() != null && term != null && !term.isEmpty() && !"dumb".equals(term);
        return new CliContext(System.out, System.err, terminal, System.getenv());
    }

    /** Captured streams, never a terminal; the process's environment. */
    public static CliContext of(PrintStream out, PrintStream err) {
        return new CliContext(out, err, false, System.getenv());
    }

    public PrintStream out() {
        return out;
    }

    public PrintStream err() {
        return err;
    }

    public boolean errIsTerminal() {
        return errIsTerminal;
    }

    public Map<String, String> env() {
        return env;
    }

    /**
     * The zone local times are printed in; for {@link #system()} and {@link #of} the default zone, read at the
     * first call: {@code TimeZone.getDefault()} reads the zone database ({@code tzdb.dat}), which commands that
     * print no time ({@code alloc logs}, {@code plugin status}) need not pay for (docs/performance.md, session 13).
     */
    public ZoneId zone() {
        ZoneId z = zone;
        if (z == null) {
            z = localZone(TimeZone.getDefault());
            zone = z;
        }
        return z;
    }

    /** The names of the zone database that are UTC itself (links to {@code Etc/UTC}, {@code Etc/GMT}). */
    private static final Set<String> UTC_NAMES = Set.of("Etc/UTC", "Etc/UCT", "Etc/Universal", "Etc/Zulu", "UTC",
            "UCT", "Universal", "Zulu", "Etc/GMT", "Etc/GMT+0", "Etc/GMT-0", "Etc/GMT0", "Etc/Greenwich", "GMT",
            "GMT+0", "GMT-0", "GMT0", "Greenwich");

    /**
     * The zone of {@code tz} as local times are printed in: {@link ZoneOffset#UTC} when it is UTC under any of its
     * names (the same text: {@code Z}), else its region. A region's rules come from {@code ZoneRulesProvider},
     * whose first use runs a {@code ServiceLoader} over the class path: it opened every one of the CLI's ~55 jars,
     * 30-70 ms of a client command (docs/performance.md, issue 18); UTC needs no rules.
     */
    static ZoneId localZone(TimeZone tz) {
        return UTC_NAMES.contains(tz.getID()) ? ZoneOffset.UTC : tz.toZoneId();
    }

    public boolean debug() {
        return "1".equals(env.get("DROVER_DEBUG"));
    }

    /** Terminal width from {@code COLUMNS}, 0 when unknown. */
    public int terminalWidth() {
        try {
            return Integer.parseInt(env.getOrDefault("COLUMNS", "0").trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
