package io.drover.cli;

import java.io.PrintStream;
import java.time.ZoneId;
import java.util.Map;

/**
 * Where a command writes and what it knows of its surroundings; injected so that tests run the CLI in-process.
 *
 * @param out results (status text, JSON): what a script pipes on
 * @param err warnings, errors and the live status
 * @param errIsTerminal whether {@code err} is an ANSI terminal (live status redrawn in place)
 * @param env the environment ({@code DROVER_DEBUG}, {@code COLUMNS})
 * @param zone the zone local times are printed in
 */
public record CliContext(PrintStream out, PrintStream err, boolean errIsTerminal, Map<String, String> env,
        ZoneId zone) {

    public CliContext {
        env = Map.copyOf(env);
    }

    /** The real process: System.out/err, a terminal when there is a console and TERM is not dumb. */
    public static CliContext system() {
        String term = System.getenv("TERM");
        boolean terminal = System.console() != null && term != null && !term.isEmpty() && !"dumb".equals(term);
        return new CliContext(System.out, System.err, terminal, System.getenv(), ZoneId.systemDefault());
    }

    /** Captured streams, never a terminal; the process's environment. */
    public static CliContext of(PrintStream out, PrintStream err) {
        return new CliContext(out, err, false, System.getenv(), ZoneId.systemDefault());
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
