package io.drover.driver.api;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Linux signal names and numbers, the vocabulary of {@code kill_signal} and {@link TaskDriver#signal}. */
public final class Signals {
    public static final String SIGKILL = "SIGKILL";

    private static final Map<String, Integer> NUMBERS = Map.ofEntries(
            Map.entry("SIGHUP", 1), Map.entry("SIGINT", 2), Map.entry("SIGQUIT", 3), Map.entry("SIGILL", 4),
            Map.entry("SIGTRAP", 5), Map.entry("SIGABRT", 6), Map.entry("SIGBUS", 7), Map.entry("SIGFPE", 8),
            Map.entry("SIGKILL", 9), Map.entry("SIGUSR1", 10), Map.entry("SIGSEGV", 11), Map.entry("SIGUSR2", 12),
            Map.entry("SIGPIPE", 13), Map.entry("SIGALRM", 14), Map.entry("SIGTERM", 15), Map.entry("SIGCHLD", 17),
            Map.entry("SIGCONT", 18), Map.entry("SIGSTOP", 19), Map.entry("SIGTSTP", 20), Map.entry("SIGTTIN", 21),
            Map.entry("SIGTTOU", 22), Map.entry("SIGURG", 23), Map.entry("SIGXCPU", 24), Map.entry("SIGXFSZ", 25),
            Map.entry("SIGVTALRM", 26), Map.entry("SIGPROF", 27), Map.entry("SIGWINCH", 28), Map.entry("SIGIO", 29),
            Map.entry("SIGPWR", 30), Map.entry("SIGSYS", 31));

    private Signals() {}

    /**
     * The canonical name of a signal given as {@code SIGTERM}, {@code TERM} or {@code sigterm}; empty when it
     * is not a known signal.
     */
    public static Optional<String> canonical(String name) {
        if (name == null) {
            return Optional.empty();
        }
        String upper = name.trim().toUpperCase(Locale.ROOT);
        String full = upper.startsWith("SIG") ? upper : "SIG" + upper;
        return NUMBERS.containsKey(full) ? Optional.of(full) : Optional.empty();
    }

    /** The number of a signal name accepted by {@link #canonical}. */
    public static int number(String name) {
        return canonical(name).map(NUMBERS::get)
                .orElseThrow(() -> new IllegalArgumentException("unknown signal " + name));
    }

    /** The name of a signal number, or {@code "signal N"} for one without a name here. */
    public static String name(int number) {
        return NUMBERS.entrySet().stream().filter(e -> e.getValue() == number).map(Map.Entry::getKey)
                .findFirst().orElse("signal " + number);
    }
}
